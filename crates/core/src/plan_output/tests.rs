use super::*;
use serde_json::json;

fn step(r: &str, deps: &[&str]) -> PlanStep {
    PlanStep {
        step_ref: r.into(),
        title: format!("Step {r}"),
        description: "d".into(),
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

#[test]
fn the_seed_example_is_valid() {
    let output = json!({
        "plan": [
            {"ref": "extract", "title": "Extract auth logic", "description": "Move checks.", "outputRequirement": "pr_required"},
            {"ref": "adopt", "title": "Adopt", "description": "Use it.", "dependsOn": ["extract"], "outputRequirement": "pr_required"}
        ],
        "summary": "Extract first, then adopt across routes.",
        "missionComplete": false
    });
    let parsed = validate_planning_output(&output).unwrap();
    assert_eq!(parsed.plan.len(), 2);
    assert_eq!(parsed.plan[1].depends_on, vec!["extract"]);
    assert_eq!(
        parsed.plan[0].output_requirement.as_deref(),
        Some("pr_required")
    );
    assert_eq!(parsed.summary, "Extract first, then adopt across routes.");
    assert!(!parsed.mission_complete);
    // Read by hand, the same as serde would read it.
    let by_serde: PlanningOutput = serde_json::from_value(output).unwrap();
    assert_eq!(parsed, by_serde);
}

#[test]
fn every_required_field_is_named_when_missing() {
    let errors = validate_planning_output(&json!({})).unwrap_err();
    assert_eq!(
        errors,
        [
            "summary is required",
            "missionComplete is required",
            "plan is required"
        ]
    );
    let errors = validate_planning_output(&json!({
        "plan": [{"title": "", "description": 3}], "summary": "s", "missionComplete": false
    }))
    .unwrap_err();
    assert_eq!(
        errors,
        [
            "plan[0].ref is required",
            "plan[0].title is required",
            "plan[0].description must be a string"
        ]
    );
    assert_eq!(
        validate_planning_output(&json!("plan")).unwrap_err(),
        ["structuredOutput must be an object"]
    );
}

#[test]
fn optional_fields_are_typed() {
    let errors = validate_planning_output(&json!({
        "plan": [{
            "ref": "a", "title": "A", "description": "d",
            "dependsOn": "b", "priority": "high", "kind": "magic", "complexity": "huge",
            "outputRequirement": "always", "baseBranch": 1, "roleSlug": false,
            "requiredCapabilities": [1]
        }],
        "summary": 1, "missionComplete": "no"
    }))
    .unwrap_err();
    for expected in [
        "summary must be a string",
        "missionComplete must be true or false",
        "plan[0].dependsOn must be an array of refs",
        "plan[0].requiredCapabilities must be an array of strings",
        "plan[0].baseBranch must be a ref",
        "plan[0].roleSlug must be a string",
        "plan[0].priority must be an integer",
        "plan[0].kind must be one of",
        "plan[0].complexity must be one of",
        "plan[0].outputRequirement must be one of",
    ] {
        assert!(
            errors.iter().any(|e| e.starts_with(expected)),
            "{expected} not in {errors:?}"
        );
    }
    assert_eq!(errors.len(), 10);
}

#[test]
fn refs_resolve_to_indexes_and_waves() {
    let steps = [
        step("a", &[]),
        step("b", &["a"]),
        step("c", &["a"]),
        step("d", &["b", "c"]),
        step("e", &[]),
    ];
    let resolved = resolve_plan(&steps).unwrap();
    assert_eq!(
        resolved.depends_on,
        vec![vec![], vec![0], vec![0], vec![1, 2], vec![]]
    );
    assert_eq!(resolved.waves, vec![vec![0, 4], vec![1, 2], vec![3]]);
}

#[test]
fn unknown_refs_and_duplicates_are_named() {
    let err = resolve_plan(&[step("a", &["x", "y"])]).unwrap_err();
    assert_eq!(
        err,
        "plan[0].dependsOn refers to unknown refs: \"x\", \"y\""
    );
    let mut s = step("a", &[]);
    s.base_branch = Some("nope".into());
    assert_eq!(
        resolve_plan(&[s]).unwrap_err(),
        "plan[0].baseBranch refers to an unknown ref: \"nope\""
    );
    assert_eq!(
        resolve_plan(&[step("a", &[]), step("a", &[])]).unwrap_err(),
        "plan: ref \"a\" is used by more than one step"
    );
}

#[test]
fn cycles_are_named_along_their_path() {
    let err = resolve_plan(&[step("a", &["b"]), step("b", &["a"])]).unwrap_err();
    assert_eq!(err, "plan: dependency cycle a → b → a");
    let err = resolve_plan(&[
        step("x", &[]),
        step("a", &["c"]),
        step("b", &["a"]),
        step("c", &["b"]),
    ])
    .unwrap_err();
    assert_eq!(err, "plan: dependency cycle a → c → b → a");
    assert_eq!(
        resolve_plan(&[step("a", &["a"])]).unwrap_err(),
        "plan: dependency cycle a → a"
    );
}

#[test]
fn a_chain_has_one_step_per_wave() {
    let resolved = resolve_plan(&[step("a", &[]), step("b", &["a"]), step("c", &["b"])]).unwrap();
    assert_eq!(resolved.waves, vec![vec![0], vec![1], vec![2]]);
}

#[test]
fn branch_names_follow_buildd() {
    assert_eq!(
        branch_name("e74e6ecf-f382-4657", "Add /healthz endpoint"),
        "buildd/e74e6ecf-add-healthz-endpoint"
    );
    assert_eq!(
        branch_name(
            "12345678-aaaa",
            "A very long title that goes on and on and on"
        ),
        "buildd/12345678-a-very-long-title-that-goes-on"
    );
    assert_eq!(
        mission_branch_name("9f3c2a1b-0000", "Rate limits: per key & per IP!"),
        "mission/rate-limits-per-key-per-ip-9f3c2a1b"
    );
}
