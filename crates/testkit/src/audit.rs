//! What a page does for people beyond what it shows: axe-core's accessibility rules, the
//! engine behind Lighthouse's audit, run in the page, and how far its content moved while
//! it loaded (cumulative layout shift).

use crate::Browser;
use serde_json::Value;
use std::path::PathBuf;

/// axe-core's script: `BUILDD_AXE` (`cargo xtask test` sets it), else where `cargo xtask`
/// installs it under `~/.cache/buildd-mc/`.
pub fn axe_script() -> PathBuf {
    std::env::var_os("BUILDD_AXE")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let home = std::env::var_os("HOME").unwrap_or_else(|| "/tmp".into());
            PathBuf::from(home).join(".cache/buildd-mc/tools/npm/node_modules/axe-core/axe.min.js")
        })
}

/// A rule a page breaks, with where.
#[derive(Debug, Clone)]
pub struct Violation {
    pub rule: String,
    /// `minor`, `moderate`, `serious` or `critical`.
    pub impact: String,
    pub help: String,
    pub help_url: String,
    /// Each offending element's selector, with axe's summary of what to fix.
    pub nodes: Vec<(String, String)>,
}

impl Violation {
    /// Whether axe rates it serious or critical.
    pub fn is_serious(&self) -> bool {
        self.impact == "serious" || self.impact == "critical"
    }
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{} ({}): {} <{}>",
            self.rule, self.impact, self.help, self.help_url
        )?;
        for (target, summary) in &self.nodes {
            let summary = summary.replace('\n', " ");
            writeln!(f, "    {target}: {summary}")?;
        }
        Ok(())
    }
}

/// Runs axe on the whole document once the script is in: its default rules, as Lighthouse
/// also whether a control's name says its visible text (experimental in axe), and WCAG
/// 2.2's target size; violations only, each a summary small enough to send back.
const AXE_RUN: &str = r#"
const done = arguments[arguments.length - 1];
axe.run(document, {
  resultTypes: ['violations'],
  rules: {'label-content-name-mismatch': {enabled: true}, 'target-size': {enabled: true}},
})
  .then(r => done(r.violations.map(v => ({
    rule: v.id, impact: v.impact || '', help: v.help, helpUrl: v.helpUrl,
    nodes: v.nodes.map(n => [n.target.join(' '), n.failureSummary || '']),
  }))))
  .catch(e => done({error: String(e && e.stack || e)}));
"#;

/// The layout shifts of the document so far: every `layout-shift` entry not caused by input
/// (the browser buffers them, so an observer made now sees those from before), with what
/// moved in each.
const LAYOUT_SHIFTS: &str = r#"
const done = arguments[arguments.length - 1];
const entries = [];
const observer = new PerformanceObserver(list => entries.push(...list.getEntries()));
observer.observe({type: 'layout-shift', buffered: true});
// The buffered entries arrive in a task of their own; two frames later they are in.
requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => {
  entries.push(...observer.takeRecords());
  observer.disconnect();
  const name = n => !n ? '(removed)' : n.nodeType !== 1 ? n.nodeName
    : n.tagName.toLowerCase() + (n.dataset.testid ? `[data-testid=${n.dataset.testid}]`
      : n.className ? '.' + String(n.className).trim().split(/\s+/).join('.') : '');
  const rect = r => `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}×${Math.round(r.height)}`;
  const shifts = entries.filter(e => !e.hadRecentInput).map(e => ({
    value: e.value,
    at: e.startTime,
    sources: (e.sources || []).map(s =>
      `${name(s.node)} at ${rect(s.previousRect)} → ${rect(s.currentRect)}`),
  }));
  done(shifts);
}, 0)));
"#;

/// One layout shift: its score, when (ms since the page began loading) and what moved
/// (element, its box before → after).
#[derive(Debug, Clone)]
pub struct Shift {
    pub value: f64,
    pub at: f64,
    pub sources: Vec<String>,
}

impl Browser {
    /// The accessibility rules the page breaks now, by axe-core.
    pub async fn axe(&self) -> Vec<Violation> {
        let loaded = self.run("return typeof window.axe === 'object'").await;
        if loaded != Value::Bool(true) {
            let path = axe_script();
            let script = std::fs::read_to_string(&path).unwrap_or_else(|e| {
                panic!(
                    "axe-core at {}: {e} (cargo xtask test installs it)",
                    path.display()
                )
            });
            // Sent as the script's body: its UMD wrapper sets `window.axe`.
            self.client
                .execute(&script, vec![])
                .await
                .unwrap_or_else(|e| panic!("loading axe-core into the page: {e}"));
        }
        let found = self
            .client
            .execute_async(AXE_RUN, vec![])
            .await
            .unwrap_or_else(|e| panic!("running axe: {e}"));
        if let Some(error) = found.get("error") {
            panic!("axe failed: {error}");
        }
        found
            .as_array()
            .expect("axe's violations")
            .iter()
            .map(|v| Violation {
                rule: v["rule"].as_str().unwrap_or_default().to_string(),
                impact: v["impact"].as_str().unwrap_or_default().to_string(),
                help: v["help"].as_str().unwrap_or_default().to_string(),
                help_url: v["helpUrl"].as_str().unwrap_or_default().to_string(),
                nodes: serde_json::from_value(v["nodes"].clone()).expect("axe's nodes"),
            })
            .collect()
    }

    /// Every layout shift of the document so far that no input caused.
    pub async fn layout_shifts(&self) -> Vec<Shift> {
        let shifts = self
            .client
            .execute_async(LAYOUT_SHIFTS, vec![])
            .await
            .unwrap_or_else(|e| panic!("reading the layout shifts: {e}"));
        shifts
            .as_array()
            .expect("the layout shifts")
            .iter()
            .map(|s| Shift {
                value: s["value"].as_f64().expect("a shift's value"),
                at: s["at"].as_f64().unwrap_or_default(),
                sources: serde_json::from_value(s["sources"].clone()).expect("its sources"),
            })
            .collect()
    }
}

/// The cumulative layout shift of `shifts`: their sum, which is never less than the largest
/// session window, the figure Lighthouse reports.
pub fn cumulative(shifts: &[Shift]) -> f64 {
    shifts.iter().map(|s| s.value).sum()
}
