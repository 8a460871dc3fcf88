-- The claim queue: every pending task with what decides whether a claim may take it now,
-- kept by triggers in the transaction that moves the task, its dependencies, their PRs or
-- its mission. A claim walks an index of the tasks it may take, however many tasks are
-- pending, blocked, paused or finished, instead of reading the team's whole queue.
--
-- `ready`: every dependency is a task of the team that is settled by buildd-core's rule,
-- `buildd_dependency_satisfied(status, has_open_pr)`, which the server registers on its
-- connections (a connection without it, such as the sqlite3 shell, cannot write tasks).
-- `stopped`: its mission lets nothing start: 1 paused, archived or held; 2 out of budget.

-- What a mission's status does to its tasks' claims, said once.
ALTER TABLE missions ADD COLUMN claim_stop INTEGER GENERATED ALWAYS AS (
    CASE WHEN is_held = 1 OR status IN ('paused', 'archived') THEN 1
         WHEN status = 'budget_exhausted' THEN 2
         ELSE 0 END) VIRTUAL;

-- Whether a task lets the tasks that depend on it start: its status, and whether one of its
-- workers left a PR that is neither merged nor closed.
CREATE VIEW task_settled AS
SELECT t.id, t.team_id, buildd_dependency_satisfied(t.status, EXISTS (
           SELECT 1 FROM workers w WHERE w.task_id = t.id AND w.pr_url IS NOT NULL
             AND w.merged_at IS NULL
             AND COALESCE(w.pr_lifecycle_status, '') NOT IN ('merged', 'closed'))) AS settled
FROM tasks t;

CREATE TABLE claim_queue (
    task_id      TEXT PRIMARY KEY,
    team_id      TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    mission_id   TEXT,
    priority     INTEGER NOT NULL,
    created_at   TEXT NOT NULL,
    start_at     TEXT,
    ready        INTEGER NOT NULL DEFAULT 0,
    stopped      INTEGER NOT NULL DEFAULT 0
);

-- A pending task's dependencies, and (by the second index) the pending tasks that wait on a
-- task: those judged again when it moves.
CREATE TABLE claim_queue_deps (
    task_id    TEXT NOT NULL,
    depends_on TEXT NOT NULL,
    PRIMARY KEY (task_id, depends_on)
) WITHOUT ROWID;
CREATE INDEX claim_queue_deps_by_dependency ON claim_queue_deps (depends_on, task_id);

-- What a claim walks: the tasks it may take, highest priority first, then oldest.
CREATE INDEX claim_queue_claimable ON claim_queue (team_id, priority DESC, created_at)
    WHERE ready = 1 AND stopped = 0;
CREATE INDEX claim_queue_claimable_in_workspace
    ON claim_queue (team_id, workspace_id, priority DESC, created_at)
    WHERE ready = 1 AND stopped = 0;
-- Why a claim found nothing, counted over the team's queue alone; a mission's queued tasks.
CREATE INDEX claim_queue_by_team ON claim_queue (team_id, workspace_id, stopped, ready, start_at);
CREATE INDEX claim_queue_by_mission ON claim_queue (mission_id);

-- A task that becomes pending, or changes what its place depends on while pending, is
-- (re)queued with its dependencies and judged. (No OR REPLACE / OR IGNORE here: a trigger's
-- conflict clause gives way to the statement that fired it, a foreign key's SET NULL
-- included.)
CREATE TRIGGER claim_queue_task_i AFTER INSERT ON tasks WHEN NEW.status = 'pending'
BEGIN
    INSERT INTO claim_queue (task_id, team_id, workspace_id, mission_id, priority, created_at,
                             start_at, stopped)
    VALUES (NEW.id, NEW.team_id, NEW.workspace_id, NEW.mission_id, NEW.priority,
            NEW.created_at, NEW.start_at,
            COALESCE((SELECT claim_stop FROM missions WHERE id = NEW.mission_id), 0));
    INSERT INTO claim_queue_deps (task_id, depends_on)
        SELECT DISTINCT NEW.id, value FROM json_each(NEW.depends_on);
    UPDATE claim_queue SET ready = NOT EXISTS (
        SELECT 1 FROM claim_queue_deps e WHERE e.task_id = claim_queue.task_id
          AND NOT EXISTS (SELECT 1 FROM task_settled d WHERE d.id = e.depends_on
                            AND d.team_id = claim_queue.team_id AND d.settled))
    WHERE task_id = NEW.id;
END;

CREATE TRIGGER claim_queue_task_u AFTER UPDATE ON tasks
    WHEN NEW.status = 'pending' AND (OLD.status IS NOT 'pending'
        OR OLD.depends_on IS NOT NEW.depends_on OR OLD.priority IS NOT NEW.priority
        OR OLD.created_at IS NOT NEW.created_at OR OLD.start_at IS NOT NEW.start_at
        OR OLD.mission_id IS NOT NEW.mission_id OR OLD.workspace_id IS NOT NEW.workspace_id
        OR OLD.team_id IS NOT NEW.team_id)
BEGIN
    DELETE FROM claim_queue WHERE task_id = NEW.id;
    DELETE FROM claim_queue_deps WHERE task_id = NEW.id;
    INSERT INTO claim_queue (task_id, team_id, workspace_id, mission_id, priority,
                                        created_at, start_at, stopped)
    VALUES (NEW.id, NEW.team_id, NEW.workspace_id, NEW.mission_id, NEW.priority,
            NEW.created_at, NEW.start_at,
            COALESCE((SELECT claim_stop FROM missions WHERE id = NEW.mission_id), 0));
    INSERT INTO claim_queue_deps (task_id, depends_on)
        SELECT DISTINCT NEW.id, value FROM json_each(NEW.depends_on);
    UPDATE claim_queue SET ready = NOT EXISTS (
        SELECT 1 FROM claim_queue_deps e WHERE e.task_id = claim_queue.task_id
          AND NOT EXISTS (SELECT 1 FROM task_settled d WHERE d.id = e.depends_on
                            AND d.team_id = claim_queue.team_id AND d.settled))
    WHERE task_id = NEW.id;
END;

-- A task that leaves pending (claimed, finished, cancelled) or is deleted leaves the queue.
CREATE TRIGGER claim_queue_task_left AFTER UPDATE OF status ON tasks
    WHEN OLD.status = 'pending' AND NEW.status IS NOT 'pending'
BEGIN
    DELETE FROM claim_queue WHERE task_id = OLD.id;
    DELETE FROM claim_queue_deps WHERE task_id = OLD.id;
END;

-- A task that appears, moves or goes: the queued tasks that depend on it are judged again
-- (one that named it before it existed included).
CREATE TRIGGER claim_queue_dependency_i AFTER INSERT ON tasks
BEGIN
    UPDATE claim_queue SET ready = NOT EXISTS (
        SELECT 1 FROM claim_queue_deps e WHERE e.task_id = claim_queue.task_id
          AND NOT EXISTS (SELECT 1 FROM task_settled d WHERE d.id = e.depends_on
                            AND d.team_id = claim_queue.team_id AND d.settled))
    WHERE task_id IN (SELECT task_id FROM claim_queue_deps WHERE depends_on = NEW.id);
END;

CREATE TRIGGER claim_queue_dependency_u AFTER UPDATE OF status ON tasks
    WHEN OLD.status IS NOT NEW.status
BEGIN
    UPDATE claim_queue SET ready = NOT EXISTS (
        SELECT 1 FROM claim_queue_deps e WHERE e.task_id = claim_queue.task_id
          AND NOT EXISTS (SELECT 1 FROM task_settled d WHERE d.id = e.depends_on
                            AND d.team_id = claim_queue.team_id AND d.settled))
    WHERE task_id IN (SELECT task_id FROM claim_queue_deps WHERE depends_on = NEW.id);
END;

CREATE TRIGGER claim_queue_task_d AFTER DELETE ON tasks
BEGIN
    DELETE FROM claim_queue WHERE task_id = OLD.id;
    DELETE FROM claim_queue_deps WHERE task_id = OLD.id;
    UPDATE claim_queue SET ready = NOT EXISTS (
        SELECT 1 FROM claim_queue_deps e WHERE e.task_id = claim_queue.task_id
          AND NOT EXISTS (SELECT 1 FROM task_settled d WHERE d.id = e.depends_on
                            AND d.team_id = claim_queue.team_id AND d.settled))
    WHERE task_id IN (SELECT task_id FROM claim_queue_deps WHERE depends_on = OLD.id);
END;

-- A PR opened, merged or closed on a task's worker: the tasks waiting on it are judged again.
CREATE TRIGGER claim_queue_worker_i AFTER INSERT ON workers WHEN NEW.pr_url IS NOT NULL
BEGIN
    UPDATE claim_queue SET ready = NOT EXISTS (
        SELECT 1 FROM claim_queue_deps e WHERE e.task_id = claim_queue.task_id
          AND NOT EXISTS (SELECT 1 FROM task_settled d WHERE d.id = e.depends_on
                            AND d.team_id = claim_queue.team_id AND d.settled))
    WHERE task_id IN (SELECT task_id FROM claim_queue_deps WHERE depends_on = NEW.task_id);
END;

CREATE TRIGGER claim_queue_worker_u AFTER UPDATE OF pr_url, merged_at, pr_lifecycle_status, task_id
    ON workers
    WHEN OLD.pr_url IS NOT NEW.pr_url OR OLD.merged_at IS NOT NEW.merged_at
        OR OLD.pr_lifecycle_status IS NOT NEW.pr_lifecycle_status OR OLD.task_id IS NOT NEW.task_id
BEGIN
    UPDATE claim_queue SET ready = NOT EXISTS (
        SELECT 1 FROM claim_queue_deps e WHERE e.task_id = claim_queue.task_id
          AND NOT EXISTS (SELECT 1 FROM task_settled d WHERE d.id = e.depends_on
                            AND d.team_id = claim_queue.team_id AND d.settled))
    WHERE task_id IN (SELECT task_id FROM claim_queue_deps
                      WHERE depends_on IN (NEW.task_id, OLD.task_id));
END;

CREATE TRIGGER claim_queue_worker_d AFTER DELETE ON workers WHEN OLD.pr_url IS NOT NULL
BEGIN
    UPDATE claim_queue SET ready = NOT EXISTS (
        SELECT 1 FROM claim_queue_deps e WHERE e.task_id = claim_queue.task_id
          AND NOT EXISTS (SELECT 1 FROM task_settled d WHERE d.id = e.depends_on
                            AND d.team_id = claim_queue.team_id AND d.settled))
    WHERE task_id IN (SELECT task_id FROM claim_queue_deps WHERE depends_on = OLD.task_id);
END;

-- A mission paused, held, archived, out of budget, or going again: its queued tasks follow.
CREATE TRIGGER claim_queue_mission_u AFTER UPDATE OF status, is_held ON missions
    WHEN OLD.claim_stop IS NOT NEW.claim_stop
BEGIN
    UPDATE claim_queue SET stopped = NEW.claim_stop WHERE mission_id = NEW.id;
END;

CREATE TRIGGER claim_queue_mission_d AFTER DELETE ON missions
BEGIN
    UPDATE claim_queue SET mission_id = NULL, stopped = 0 WHERE mission_id = OLD.id;
END;

-- The tasks pending now.
INSERT INTO claim_queue (task_id, team_id, workspace_id, mission_id, priority, created_at,
                         start_at, stopped)
SELECT t.id, t.team_id, t.workspace_id, t.mission_id, t.priority, t.created_at, t.start_at,
       COALESCE(m.claim_stop, 0)
FROM tasks t LEFT JOIN missions m ON m.id = t.mission_id
WHERE t.status = 'pending';
INSERT INTO claim_queue_deps (task_id, depends_on)
SELECT DISTINCT t.id, d.value FROM tasks t, json_each(t.depends_on) d WHERE t.status = 'pending';
UPDATE claim_queue SET ready = NOT EXISTS (
    SELECT 1 FROM claim_queue_deps e WHERE e.task_id = claim_queue.task_id
      AND NOT EXISTS (SELECT 1 FROM task_settled d WHERE d.id = e.depends_on
                        AND d.team_id = claim_queue.team_id AND d.settled));
