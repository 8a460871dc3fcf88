-- What a finished task asks of its mission, without reading every task of it: whether any
-- task is still open, and which tasks are its organizer runs.
CREATE INDEX tasks_by_mission_mode_status ON tasks (mission_id, mode, status, team_id);
