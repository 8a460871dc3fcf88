-- Which tasks of a mission moved (the task row or one of its workers), in commit order: a
-- mission page rebuilt after a change reads again only the tasks that moved.
DROP TRIGGER tasks_mission_gen_i;
DROP TRIGGER tasks_mission_gen_u;
DROP TRIGGER tasks_mission_gen_d;
DROP TRIGGER workers_mission_gen_i;
DROP TRIGGER workers_mission_gen_u;
DROP TRIGGER workers_mission_gen_d;
ALTER TABLE missions DROP COLUMN task_generation;

-- AUTOINCREMENT: a sequence number is never reused, even after pruning.
CREATE TABLE task_changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    mission_id TEXT NOT NULL,
    task_id TEXT NOT NULL
);
CREATE INDEX task_changes_by_mission ON task_changes (mission_id, seq);

-- Changes up to `seq` were pruned: a task list read before it must be read again in full.
CREATE TABLE task_changes_floor (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    seq INTEGER NOT NULL
);
INSERT INTO task_changes_floor (id, seq) VALUES (1, 0);

CREATE TRIGGER tasks_changed_i AFTER INSERT ON tasks WHEN NEW.mission_id IS NOT NULL
BEGIN INSERT INTO task_changes (mission_id, task_id) VALUES (NEW.mission_id, NEW.id); END;
CREATE TRIGGER tasks_changed_u AFTER UPDATE ON tasks WHEN NEW.mission_id IS NOT NULL
BEGIN INSERT INTO task_changes (mission_id, task_id) VALUES (NEW.mission_id, NEW.id); END;
CREATE TRIGGER tasks_moved_u AFTER UPDATE OF mission_id ON tasks
    WHEN OLD.mission_id IS NOT NULL AND OLD.mission_id IS NOT NEW.mission_id
BEGIN INSERT INTO task_changes (mission_id, task_id) VALUES (OLD.mission_id, OLD.id); END;
CREATE TRIGGER tasks_changed_d AFTER DELETE ON tasks WHEN OLD.mission_id IS NOT NULL
BEGIN INSERT INTO task_changes (mission_id, task_id) VALUES (OLD.mission_id, OLD.id); END;
CREATE TRIGGER workers_changed_i AFTER INSERT ON workers
BEGIN INSERT INTO task_changes (mission_id, task_id)
      SELECT mission_id, id FROM tasks WHERE id = NEW.task_id AND mission_id IS NOT NULL; END;
CREATE TRIGGER workers_changed_u AFTER UPDATE ON workers
BEGIN INSERT INTO task_changes (mission_id, task_id)
      SELECT mission_id, id FROM tasks
      WHERE id IN (NEW.task_id, OLD.task_id) AND mission_id IS NOT NULL; END;
CREATE TRIGGER workers_changed_d AFTER DELETE ON workers
BEGIN INSERT INTO task_changes (mission_id, task_id)
      SELECT mission_id, id FROM tasks WHERE id = OLD.task_id AND mission_id IS NOT NULL; END;
