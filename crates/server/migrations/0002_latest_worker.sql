-- A task's current worker, kept by the database itself: the worker inserted last is the
-- one Buildd calls "latest". Mission responses join it instead of sorting workers per task.
ALTER TABLE tasks ADD COLUMN latest_worker_id TEXT REFERENCES workers(id) ON DELETE SET NULL;

UPDATE tasks SET latest_worker_id = (
    SELECT w.id FROM workers w WHERE w.task_id = tasks.id
    ORDER BY COALESCE(w.started_at, w.created_at) DESC, w.created_at DESC LIMIT 1
);

CREATE TRIGGER workers_set_latest AFTER INSERT ON workers
BEGIN
    UPDATE tasks SET latest_worker_id = NEW.id WHERE id = NEW.task_id;
END;
