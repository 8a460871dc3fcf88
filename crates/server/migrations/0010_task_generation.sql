-- How far a mission's tasks (and their workers) have moved: a mission page rebuilt because
-- something else changed reuses its task list while this stays the same.
ALTER TABLE missions ADD COLUMN task_generation INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER tasks_mission_gen_i AFTER INSERT ON tasks WHEN NEW.mission_id IS NOT NULL
BEGIN UPDATE missions SET task_generation = task_generation + 1 WHERE id = NEW.mission_id; END;
CREATE TRIGGER tasks_mission_gen_u AFTER UPDATE ON tasks
BEGIN UPDATE missions SET task_generation = task_generation + 1 WHERE id IN (NEW.mission_id, OLD.mission_id); END;
CREATE TRIGGER tasks_mission_gen_d AFTER DELETE ON tasks WHEN OLD.mission_id IS NOT NULL
BEGIN UPDATE missions SET task_generation = task_generation + 1 WHERE id = OLD.mission_id; END;
CREATE TRIGGER workers_mission_gen_i AFTER INSERT ON workers
BEGIN UPDATE missions SET task_generation = task_generation + 1
      WHERE id = (SELECT mission_id FROM tasks WHERE id = NEW.task_id); END;
CREATE TRIGGER workers_mission_gen_u AFTER UPDATE ON workers
BEGIN UPDATE missions SET task_generation = task_generation + 1
      WHERE id = (SELECT mission_id FROM tasks WHERE id = NEW.task_id); END;
CREATE TRIGGER workers_mission_gen_d AFTER DELETE ON workers
BEGIN UPDATE missions SET task_generation = task_generation + 1
      WHERE id = (SELECT mission_id FROM tasks WHERE id = OLD.task_id); END;
