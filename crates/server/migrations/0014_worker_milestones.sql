-- What a worker reported reaching (`milestones`, `appendMilestones`), newest last; Buildd's
-- MCP tool `query_events` reads them back.
ALTER TABLE workers ADD COLUMN milestones TEXT;
