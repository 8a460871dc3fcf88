-- Every task's dependencies, a row each, and (by the second index) the tasks that depend on
-- a task: what a failure fails with it, what a requeue takes back and what a cycle check
-- walks, found without reading the team's every task. Kept from `tasks.depends_on` by
-- triggers in the transaction that writes it.
CREATE TABLE task_dependencies (
    task_id    TEXT NOT NULL,
    depends_on TEXT NOT NULL,
    PRIMARY KEY (task_id, depends_on)
) WITHOUT ROWID;
CREATE INDEX task_dependencies_by_dependency ON task_dependencies (depends_on, task_id);

CREATE TRIGGER task_dependencies_i AFTER INSERT ON tasks WHEN NEW.depends_on != '[]'
BEGIN
    INSERT INTO task_dependencies (task_id, depends_on)
        SELECT DISTINCT NEW.id, value FROM json_each(NEW.depends_on);
END;

CREATE TRIGGER task_dependencies_u AFTER UPDATE OF id, depends_on ON tasks
    WHEN OLD.id IS NOT NEW.id OR OLD.depends_on IS NOT NEW.depends_on
BEGIN
    DELETE FROM task_dependencies WHERE task_id = OLD.id;
    INSERT INTO task_dependencies (task_id, depends_on)
        SELECT DISTINCT NEW.id, value FROM json_each(NEW.depends_on);
END;

CREATE TRIGGER task_dependencies_d AFTER DELETE ON tasks WHEN OLD.depends_on != '[]'
BEGIN
    DELETE FROM task_dependencies WHERE task_id = OLD.id;
END;

INSERT INTO task_dependencies (task_id, depends_on)
    SELECT DISTINCT t.id, d.value FROM tasks t, json_each(t.depends_on) d;
