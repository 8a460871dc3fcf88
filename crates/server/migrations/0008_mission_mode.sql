-- How a mission is worked: `dispatch` (agents execute; the planner stops at dispatch) or
-- `interactive` (a person works it with the planning agent). Not a health state.
ALTER TABLE missions ADD COLUMN mode TEXT NOT NULL DEFAULT 'dispatch'
    CHECK (mode IN ('dispatch', 'interactive'));
