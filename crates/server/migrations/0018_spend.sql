-- What work cost. A worker keeps its runner's running totals (micro-dollars, so sums are
-- exact); a task keeps the sum over its workers, every attempt; a mission the sum over its
-- tasks, housekeeping included. The sums are kept by triggers in the transaction that moves
-- a worker's cost, so a budget is checked against what is committed, and the mission list
-- and detail read spend without summing thousands of rows.
ALTER TABLE workers ADD COLUMN cost_micros INTEGER NOT NULL DEFAULT 0;
ALTER TABLE workers ADD COLUMN input_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE workers ADD COLUMN output_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tasks ADD COLUMN cost_micros INTEGER NOT NULL DEFAULT 0;
ALTER TABLE missions ADD COLUMN spend_micros INTEGER NOT NULL DEFAULT 0;

-- A task's cost is recounted from its workers (a task has a handful). Workers are deleted
-- only with their task, whose spent cost stays with its mission.
CREATE TRIGGER workers_cost_i AFTER INSERT ON workers WHEN NEW.cost_micros != 0
BEGIN UPDATE tasks SET cost_micros =
        (SELECT COALESCE(SUM(cost_micros), 0) FROM workers WHERE task_id = NEW.task_id)
      WHERE id = NEW.task_id; END;
CREATE TRIGGER workers_cost_u AFTER UPDATE OF cost_micros, task_id ON workers
    WHEN NEW.cost_micros != OLD.cost_micros OR NEW.task_id != OLD.task_id
BEGIN UPDATE tasks SET cost_micros =
        (SELECT COALESCE(SUM(w.cost_micros), 0) FROM workers w WHERE w.task_id = tasks.id)
      WHERE id IN (NEW.task_id, OLD.task_id); END;

-- A mission's spend moves by the task's difference (a mission may have thousands of tasks);
-- a task that moves to another mission takes its cost with it. A deleted task's cost stays
-- spent: the money is gone, and deleting work must not lift a budget.
CREATE TRIGGER tasks_cost_u AFTER UPDATE OF cost_micros ON tasks
    WHEN NEW.cost_micros != OLD.cost_micros AND NEW.mission_id IS NOT NULL
BEGIN UPDATE missions SET spend_micros = spend_micros + NEW.cost_micros - OLD.cost_micros
      WHERE id = NEW.mission_id; END;
-- (With tasks_cost_u, which adds the difference, a move and a new cost in one statement
-- still come out exact.)
CREATE TRIGGER tasks_cost_moved AFTER UPDATE OF mission_id ON tasks
    WHEN OLD.mission_id IS NOT NEW.mission_id AND OLD.cost_micros != 0
BEGIN UPDATE missions SET spend_micros = spend_micros - OLD.cost_micros WHERE id = OLD.mission_id;
      UPDATE missions SET spend_micros = spend_micros + OLD.cost_micros WHERE id = NEW.mission_id;
END;
