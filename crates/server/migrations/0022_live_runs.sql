-- What a run did, as its runner reports it, for the task page's live view: turns, commits
-- and the lines they changed, why it ended, and the question it waits on (`waitingFor`,
-- null once answered). `milestones_reported` counts every milestone ever reported, of
-- which `milestones` keeps the newest.
ALTER TABLE workers ADD COLUMN waiting_for TEXT;
ALTER TABLE workers ADD COLUMN turns INTEGER NOT NULL DEFAULT 0;
ALTER TABLE workers ADD COLUMN commit_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE workers ADD COLUMN files_changed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE workers ADD COLUMN lines_added INTEGER NOT NULL DEFAULT 0;
ALTER TABLE workers ADD COLUMN lines_removed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE workers ADD COLUMN terminal_reason TEXT;
ALTER TABLE workers ADD COLUMN milestones_reported INTEGER NOT NULL DEFAULT 0;

-- The agents waiting on a person: few at any time, so the index holds only them.
CREATE INDEX workers_waiting ON workers (workspace_id) WHERE waiting_for IS NOT NULL;

-- Who stopped a task, when and why (a person ends it as cancelled).
ALTER TABLE tasks ADD COLUMN stopped_by TEXT;
ALTER TABLE tasks ADD COLUMN stopped_at TEXT;
ALTER TABLE tasks ADD COLUMN stop_reason TEXT;

-- Activity lists the team's tasks, newest change first, a page at a time; retries are
-- listed under their task. Partial, so only a query that leaves retries out (Activity's)
-- can use it, and no other query of a team's tasks is drawn to it.
CREATE INDEX tasks_recent ON tasks (team_id, updated_at) WHERE task_class != 'attempt';
