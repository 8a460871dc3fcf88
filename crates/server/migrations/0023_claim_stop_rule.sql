-- Whether a mission lets its tasks be claimed, as buildd-core's rule says it
-- (`ClaimStop::of`, registered on the server's connections as `buildd_claim_stop`), in
-- place of the same rule spelled in SQL as the column `missions.claim_stop`. The triggers
-- that read the column call the function instead; like `buildd_dependency_satisfied`, it
-- runs only when a mission or task is written, so a plain SQLite (the sqlite3 shell, a
-- backup's integrity check) still reads every table. SQLite drops a column only when no
-- trigger names it, so those three triggers are dropped first and made again.

DROP TRIGGER claim_queue_task_i;
DROP TRIGGER claim_queue_task_u;
DROP TRIGGER claim_queue_mission_u;

ALTER TABLE missions DROP COLUMN claim_stop;

CREATE TRIGGER claim_queue_task_i AFTER INSERT ON tasks WHEN NEW.status = 'pending'
BEGIN
    INSERT INTO claim_queue (task_id, team_id, workspace_id, mission_id, priority, created_at,
                             start_at, stopped)
    VALUES (NEW.id, NEW.team_id, NEW.workspace_id, NEW.mission_id, NEW.priority,
            NEW.created_at, NEW.start_at,
            COALESCE((SELECT buildd_claim_stop(status, is_held) FROM missions
                      WHERE id = NEW.mission_id), 0));
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
            COALESCE((SELECT buildd_claim_stop(status, is_held) FROM missions
                      WHERE id = NEW.mission_id), 0));
    INSERT INTO claim_queue_deps (task_id, depends_on)
        SELECT DISTINCT NEW.id, value FROM json_each(NEW.depends_on);
    UPDATE claim_queue SET ready = NOT EXISTS (
        SELECT 1 FROM claim_queue_deps e WHERE e.task_id = claim_queue.task_id
          AND NOT EXISTS (SELECT 1 FROM task_settled d WHERE d.id = e.depends_on
                            AND d.team_id = claim_queue.team_id AND d.settled))
    WHERE task_id = NEW.id;
END;

CREATE TRIGGER claim_queue_mission_u AFTER UPDATE OF status, is_held ON missions
    WHEN buildd_claim_stop(OLD.status, OLD.is_held) IS NOT buildd_claim_stop(NEW.status, NEW.is_held)
BEGIN
    UPDATE claim_queue SET stopped = buildd_claim_stop(NEW.status, NEW.is_held) WHERE mission_id = NEW.id;
END;

-- The queue's stops as the rule gives them now.
UPDATE claim_queue SET stopped = COALESCE(
    (SELECT buildd_claim_stop(status, is_held) FROM missions WHERE id = claim_queue.mission_id),
    0);
