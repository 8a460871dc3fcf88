-- When a mission's latest task was claimed, in a row of its own: a claim writes it last,
-- so claims do not queue behind whatever holds the mission's row (a task ending, a run
-- opening) and do not count as a change to the mission.
CREATE TABLE mission_starts (
    mission_id  TEXT PRIMARY KEY REFERENCES missions(id) ON DELETE CASCADE,
    at          TEXT NOT NULL
);
INSERT INTO mission_starts (mission_id, at)
    SELECT id, last_task_started_at FROM missions WHERE last_task_started_at IS NOT NULL;
ALTER TABLE missions DROP COLUMN last_task_started_at;
