//! A revised plan compared with the plan it replaces (a revision names it in its context's
//! `previousPlanTaskId`), so a reviewer sees what changed since they rejected it.
//!
//! Steps are matched by `ref`; of the steps left over, a removed and an added step with the
//! same title (trimmed, case aside) are one step whose ref was renamed. A step's position
//! is not compared: reordering alone changes nothing. Dependencies are compared as edge
//! sets through the renames, so a dependency on a renamed step is unchanged.

use crate::plan_output::PlanStep;
use crate::word_diff::{word_diff, WordSegment};
use std::collections::{BTreeSet, HashMap};

/// A field of a plan step that can change between revisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StepField {
    Ref,
    Title,
    Description,
    DependsOn,
    BaseBranch,
    Role,
    OutputRequirement,
    Priority,
    Kind,
    Complexity,
    RequiredCapabilities,
}

impl StepField {
    /// The field in words: "dependencies", "output requirement".
    pub fn label(self) -> &'static str {
        match self {
            Self::Ref => "ref",
            Self::Title => "title",
            Self::Description => "description",
            Self::DependsOn => "dependencies",
            Self::BaseBranch => "base branch",
            Self::Role => "role",
            Self::OutputRequirement => "output requirement",
            Self::Priority => "priority",
            Self::Kind => "kind",
            Self::Complexity => "complexity",
            Self::RequiredCapabilities => "required capabilities",
        }
    }
}

/// What happened to a step between revisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepChange {
    Added,
    Removed,
    Changed,
    Unchanged,
}

impl StepChange {
    /// The change in a word: "added", "removed", "changed", "unchanged".
    pub fn label(self) -> &'static str {
        match self {
            Self::Added => "added",
            Self::Removed => "removed",
            Self::Changed => "changed",
            Self::Unchanged => "unchanged",
        }
    }
}

/// One step of either revision, and how it changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepDiff {
    pub change: StepChange,
    /// Its ref in the older revision (`None` for an added step).
    pub old_ref: Option<String>,
    /// Its ref in the newer revision (`None` for a removed step).
    pub new_ref: Option<String>,
    /// Its title in the newer revision, or the older one for a removed step.
    pub title: String,
    /// The fields that changed, in [`StepField`] order; empty unless `Changed`.
    pub fields: Vec<StepField>,
    /// The description word by word, when it changed.
    pub description: Option<Vec<WordSegment>>,
    /// Refs (of the newer revision) it now depends on and did not before.
    pub dependencies_added: Vec<String>,
    /// Refs (of the older revision) it depended on and no longer does.
    pub dependencies_removed: Vec<String>,
}

impl StepDiff {
    /// Whether a reviewer's comment on this step was acted on: the step went, or something
    /// in it besides its ref changed (a bare rename answers nothing).
    pub fn addresses_comments(&self) -> bool {
        match self.change {
            StepChange::Removed => true,
            StepChange::Changed => self.fields.iter().any(|f| *f != StepField::Ref),
            StepChange::Added | StepChange::Unchanged => false,
        }
    }
}

/// Two revisions of a plan compared: the newer revision's steps in its order, then the
/// steps it removed in the older revision's order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlanDiff {
    pub steps: Vec<StepDiff>,
}

impl PlanDiff {
    pub fn count(&self, change: StepChange) -> usize {
        self.steps.iter().filter(|s| s.change == change).count()
    }

    /// The step that had `old_ref` in the older revision.
    pub fn by_old_ref(&self, old_ref: &str) -> Option<&StepDiff> {
        self.steps
            .iter()
            .find(|s| s.old_ref.as_deref() == Some(old_ref))
    }

    /// Nothing was added, removed or changed.
    pub fn is_unchanged(&self) -> bool {
        self.steps.iter().all(|s| s.change == StepChange::Unchanged)
    }
}

fn title_key(title: &str) -> String {
    title.trim().to_lowercase()
}

/// Compares revision `new` of a plan with the revision `old` it replaces.
pub fn diff_plans(old: &[PlanStep], new: &[PlanStep]) -> PlanDiff {
    // Pair steps: first by ref (a duplicated ref pairs its first use only), then leftovers
    // by title, in order.
    let mut pair_of_new: Vec<Option<usize>> = vec![None; new.len()];
    let mut paired_old = vec![false; old.len()];
    let mut old_by_ref: HashMap<&str, usize> = HashMap::new();
    for (i, step) in old.iter().enumerate() {
        old_by_ref.entry(step.step_ref.as_str()).or_insert(i);
    }
    for (j, step) in new.iter().enumerate() {
        if let Some(&i) = old_by_ref.get(step.step_ref.as_str()) {
            if !paired_old[i] {
                paired_old[i] = true;
                pair_of_new[j] = Some(i);
            }
        }
    }
    for (j, step) in new.iter().enumerate() {
        if pair_of_new[j].is_some() {
            continue;
        }
        let key = title_key(&step.title);
        if let Some(i) = (0..old.len()).find(|&i| !paired_old[i] && title_key(&old[i].title) == key)
        {
            paired_old[i] = true;
            pair_of_new[j] = Some(i);
        }
    }

    // Old refs as the newer revision names them; a ref of a removed step stays itself.
    let mut renamed: HashMap<&str, &str> = HashMap::new();
    for (j, pair) in pair_of_new.iter().enumerate() {
        if let Some(i) = *pair {
            renamed.insert(old[i].step_ref.as_str(), new[j].step_ref.as_str());
        }
    }
    let through = |r: &'_ str| -> String { renamed.get(r).copied().unwrap_or(r).to_string() };

    let mut steps: Vec<StepDiff> = new
        .iter()
        .zip(&pair_of_new)
        .map(|(step, pair)| match pair {
            Some(i) => compare(&old[*i], step, &through),
            None => StepDiff {
                change: StepChange::Added,
                old_ref: None,
                new_ref: Some(step.step_ref.clone()),
                title: step.title.clone(),
                fields: Vec::new(),
                description: None,
                dependencies_added: Vec::new(),
                dependencies_removed: Vec::new(),
            },
        })
        .collect();
    steps.extend(
        old.iter()
            .zip(&paired_old)
            .filter(|(_, paired)| !**paired)
            .map(|(step, _)| StepDiff {
                change: StepChange::Removed,
                old_ref: Some(step.step_ref.clone()),
                new_ref: None,
                title: step.title.clone(),
                fields: Vec::new(),
                description: None,
                dependencies_added: Vec::new(),
                dependencies_removed: Vec::new(),
            }),
    );
    PlanDiff { steps }
}

fn compare(old: &PlanStep, new: &PlanStep, through: &dyn Fn(&str) -> String) -> StepDiff {
    let mut fields = Vec::new();
    let mut check = |field: StepField, changed: bool| {
        if changed {
            fields.push(field);
        }
    };
    check(StepField::Ref, old.step_ref != new.step_ref);
    check(StepField::Title, old.title.trim() != new.title.trim());
    let description_changed = !old
        .description
        .split_whitespace()
        .eq(new.description.split_whitespace());
    check(StepField::Description, description_changed);

    let old_deps: BTreeSet<String> = old.depends_on.iter().map(|r| through(r)).collect();
    let new_deps: BTreeSet<String> = new.depends_on.iter().cloned().collect();
    let dependencies_added: Vec<String> = new_deps.difference(&old_deps).cloned().collect();
    let dependencies_removed: Vec<String> = {
        let mut gone: Vec<String> = old
            .depends_on
            .iter()
            .filter(|r| !new_deps.contains(&through(r)))
            .cloned()
            .collect();
        gone.sort();
        gone.dedup();
        gone
    };
    check(
        StepField::DependsOn,
        !dependencies_added.is_empty() || !dependencies_removed.is_empty(),
    );
    check(
        StepField::BaseBranch,
        old.base_branch.as_deref().map(through) != new.base_branch,
    );
    check(StepField::Role, old.role_slug != new.role_slug);
    check(
        StepField::OutputRequirement,
        old.output_requirement != new.output_requirement,
    );
    check(StepField::Priority, old.priority != new.priority);
    check(StepField::Kind, old.kind != new.kind);
    check(StepField::Complexity, old.complexity != new.complexity);
    let capabilities =
        |s: &PlanStep| -> BTreeSet<String> { s.required_capabilities.iter().cloned().collect() };
    check(
        StepField::RequiredCapabilities,
        capabilities(old) != capabilities(new),
    );

    StepDiff {
        change: if fields.is_empty() {
            StepChange::Unchanged
        } else {
            StepChange::Changed
        },
        old_ref: Some(old.step_ref.clone()),
        new_ref: Some(new.step_ref.clone()),
        title: new.title.clone(),
        description: description_changed.then(|| word_diff(&old.description, &new.description)),
        fields,
        dependencies_added,
        dependencies_removed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::word_diff::WordSegment::{Added, Removed, Same};

    fn step(r: &str, title: &str, deps: &[&str]) -> PlanStep {
        PlanStep {
            step_ref: r.into(),
            title: title.into(),
            description: format!("Do {title}"),
            depends_on: deps.iter().map(|d| d.to_string()).collect(),
            base_branch: None,
            role_slug: None,
            output_requirement: None,
            priority: None,
            kind: None,
            complexity: None,
            required_capabilities: vec![],
        }
    }

    fn changes(diff: &PlanDiff) -> Vec<(Option<&str>, Option<&str>, StepChange)> {
        diff.steps
            .iter()
            .map(|s| (s.old_ref.as_deref(), s.new_ref.as_deref(), s.change))
            .collect()
    }

    #[test]
    fn the_same_plan_is_unchanged() {
        let plan = [step("a", "A", &[]), step("b", "B", &["a"])];
        let diff = diff_plans(&plan, &plan);
        assert!(diff.is_unchanged());
        assert_eq!(diff.count(StepChange::Unchanged), 2);
    }

    #[test]
    fn added_and_removed_steps_are_found() {
        let old = [step("a", "A", &[]), step("b", "B", &[])];
        let new = [step("a", "A", &[]), step("c", "C", &[])];
        let diff = diff_plans(&old, &new);
        assert_eq!(
            changes(&diff),
            [
                (Some("a"), Some("a"), StepChange::Unchanged),
                (None, Some("c"), StepChange::Added),
                (Some("b"), None, StepChange::Removed),
            ]
        );
        assert_eq!(diff.steps[2].title, "B");
    }

    #[test]
    fn reordering_alone_is_no_change() {
        let old = [
            step("a", "A", &[]),
            step("b", "B", &[]),
            step("c", "C", &["a", "b"]),
        ];
        let new = [
            step("c", "C", &["b", "a"]),
            step("b", "B", &[]),
            step("a", "A", &[]),
        ];
        assert!(diff_plans(&old, &new).is_unchanged());
    }

    #[test]
    fn each_changed_field_is_named() {
        let old = step("a", "A", &[]);
        let mut new = step("a", "A revised", &[]);
        new.description = "Do A with tests".into();
        new.role_slug = Some("backend".into());
        new.output_requirement = Some("pr_required".into());
        new.base_branch = Some("z".into());
        new.priority = Some(2);
        new.kind = Some("engineering".into());
        new.complexity = Some("simple".into());
        new.required_capabilities = vec!["gpu".into()];
        let diff = diff_plans(&[old], &[new]);
        let s = &diff.steps[0];
        assert_eq!(s.change, StepChange::Changed);
        assert_eq!(
            s.fields,
            [
                StepField::Title,
                StepField::Description,
                StepField::BaseBranch,
                StepField::Role,
                StepField::OutputRequirement,
                StepField::Priority,
                StepField::Kind,
                StepField::Complexity,
                StepField::RequiredCapabilities,
            ]
        );
        assert_eq!(
            s.description,
            Some(vec![Same("Do A".into()), Added("with tests".into())])
        );
        assert_eq!(StepField::OutputRequirement.label(), "output requirement");
    }

    #[test]
    fn a_reflowed_description_is_not_a_change() {
        let old = step("a", "A", &[]);
        let mut new = old.clone();
        new.description = "Do\n  A".into();
        assert!(diff_plans(&[old], &[new]).is_unchanged());
    }

    #[test]
    fn a_renamed_ref_is_one_step_and_dependencies_on_it_are_unchanged() {
        let old = [
            step("extract", "Extract auth", &[]),
            step("adopt", "Adopt", &["extract"]),
        ];
        let mut extract = step("extract-mw", "  extract AUTH ", &[]);
        extract.description = old[0].description.clone();
        let new = [extract, step("adopt", "Adopt", &["extract-mw"])];
        let diff = diff_plans(&old, &new);
        assert_eq!(
            changes(&diff),
            [
                (Some("extract"), Some("extract-mw"), StepChange::Changed),
                (Some("adopt"), Some("adopt"), StepChange::Unchanged),
            ]
        );
        // The title differs in case, and the ref was renamed: nothing else.
        assert_eq!(diff.steps[0].fields, [StepField::Ref, StepField::Title]);
        assert!(!diff.steps[1].addresses_comments());
    }

    #[test]
    fn a_bare_rename_does_not_address_a_comment() {
        let old = [step("a", "A", &[])];
        let new = [step("a2", "A", &[])];
        let diff = diff_plans(&old, &new);
        assert_eq!(diff.steps[0].fields, [StepField::Ref]);
        assert!(!diff.steps[0].addresses_comments());
    }

    #[test]
    fn dependency_edges_added_and_removed_are_listed() {
        let old = [
            step("a", "A", &[]),
            step("b", "B", &[]),
            step("gone", "Gone", &[]),
            step("c", "C", &["a", "gone"]),
        ];
        let new = [
            step("a", "A", &[]),
            step("b", "B", &[]),
            step("c", "C", &["a", "b"]),
        ];
        let diff = diff_plans(&old, &new);
        let c = diff.by_old_ref("c").unwrap();
        assert_eq!(c.fields, [StepField::DependsOn]);
        assert_eq!(c.dependencies_added, ["b"]);
        assert_eq!(c.dependencies_removed, ["gone"]);
        assert!(c.addresses_comments());
        assert!(diff.by_old_ref("gone").unwrap().addresses_comments());
    }

    #[test]
    fn a_base_branch_on_a_renamed_step_is_unchanged() {
        let mut old_b = step("b", "B", &[]);
        old_b.base_branch = Some("a".into());
        let mut new_b = step("b", "B", &[]);
        new_b.base_branch = Some("a2".into());
        let diff = diff_plans(
            &[step("a", "A", &[]), old_b],
            &[step("a2", "A", &[]), new_b],
        );
        assert_eq!(diff.by_old_ref("b").unwrap().change, StepChange::Unchanged);
    }

    #[test]
    fn a_removed_description_word_shows() {
        let old = step("a", "A", &[]);
        let mut new = old.clone();
        new.description = "A".into();
        let diff = diff_plans(&[old], &[new]);
        assert_eq!(
            diff.steps[0].description,
            Some(vec![Removed("Do".into()), Same("A".into())])
        );
    }

    #[test]
    fn duplicate_titles_pair_in_order() {
        let old = [step("x1", "Fix", &[]), step("x2", "Fix", &[])];
        let new = [step("y1", "Fix", &[]), step("y2", "Fix", &[])];
        assert_eq!(
            changes(&diff_plans(&old, &new)),
            [
                (Some("x1"), Some("y1"), StepChange::Changed),
                (Some("x2"), Some("y2"), StepChange::Changed),
            ]
        );
    }
}
