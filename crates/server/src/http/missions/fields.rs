//! The fields a mission create and update share, checked one by one so each refusal names
//! its field.

use crate::body::{Field, JsonObject};
use crate::error::{ApiError, ApiResult};
use buildd_core::budget::parse_budget;
use buildd_core::merge_policy::check_merge_policy;
use buildd_core::money::Usd;
use buildd_core::OrchestrationMode;
use serde_json::Value;

pub(super) fn orchestration_mode(value: &str) -> ApiResult<OrchestrationMode> {
    OrchestrationMode::known(value).ok_or_else(|| {
        ApiError::bad("orchestrationMode must be \"auto\" or \"manual\"".to_string())
    })
}

/// `mode` of a create or update: how the mission is worked.
pub(super) fn work_mode(body: &JsonObject) -> ApiResult<Option<String>> {
    match body.string("mode")? {
        Field::Absent => Ok(None),
        Field::Set(m) if m == "dispatch" || m == "interactive" => Ok(Some(m)),
        _ => Err(ApiError::bad(
            "mode must be \"dispatch\" or \"interactive\"",
        )),
    }
}

/// `mergePolicy` of a create or update: absent, null (inherit), or a valid policy.
pub(super) fn merge_policy_field(body: &JsonObject) -> ApiResult<Option<Option<Value>>> {
    match body.0.get("mergePolicy") {
        None => Ok(None),
        Some(Value::Null) => Ok(Some(None)),
        Some(v) => {
            let policy = check_merge_policy(v)
                .map_err(|errors| ApiError::merge_policy("mergePolicy", &errors))?;
            Ok(Some(Some(serde_json::to_value(policy)?)))
        }
    }
}

/// `costBudgetUsd` of a body: absent, null (no budget), or a non-negative amount as a
/// number or a decimal string, kept to the cent (buildd-core's `parse_budget`).
pub(super) fn cost_budget(body: &JsonObject) -> ApiResult<Option<Option<Usd>>> {
    body.0
        .get("costBudgetUsd")
        .map(parse_budget)
        .transpose()
        .map_err(ApiError::BadRequest)
}
