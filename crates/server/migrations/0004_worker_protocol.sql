-- Steering messages to a worker and the agent's answers, newest last (capped at 30).
ALTER TABLE workers ADD COLUMN instruction_history TEXT NOT NULL DEFAULT '[]';

CREATE INDEX workers_by_account ON workers (account_id, status);

-- A claim scans the team's pending tasks, highest priority first.
CREATE INDEX tasks_pending_by_team ON tasks (team_id, status, priority, created_at);

-- At most one live aggregation task per approved plan, even when its last children finish
-- at the same moment. A cancelled aggregator frees the slot for a fresh one.
CREATE UNIQUE INDEX tasks_one_aggregator_per_plan ON tasks (parent_task_id)
    WHERE json_extract(context, '$.aggregation') = 1 AND status <> 'cancelled';
