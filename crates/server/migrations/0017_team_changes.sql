-- Each team's own count of writes to what its pages show. The change stream
-- (GET /api/events) tells a team's open pages when theirs moves, and names this count as the
-- event's id, so a page resumes from it; another team's writes never move it.
ALTER TABLE teams ADD COLUMN changes INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER missions_team_i AFTER INSERT ON missions
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = NEW.team_id; END;
CREATE TRIGGER missions_team_u AFTER UPDATE ON missions
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = NEW.team_id; END;
CREATE TRIGGER missions_team_d AFTER DELETE ON missions
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = OLD.team_id; END;
CREATE TRIGGER tasks_team_i AFTER INSERT ON tasks
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = NEW.team_id; END;
CREATE TRIGGER tasks_team_u AFTER UPDATE ON tasks
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = NEW.team_id; END;
CREATE TRIGGER tasks_team_d AFTER DELETE ON tasks
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = OLD.team_id; END;
CREATE TRIGGER schedules_team_i AFTER INSERT ON schedules
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = NEW.team_id; END;
CREATE TRIGGER schedules_team_u AFTER UPDATE ON schedules
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = NEW.team_id; END;
CREATE TRIGGER schedules_team_d AFTER DELETE ON schedules
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = OLD.team_id; END;
CREATE TRIGGER workspaces_team_i AFTER INSERT ON workspaces
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = NEW.team_id; END;
CREATE TRIGGER workspaces_team_u AFTER UPDATE ON workspaces
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = NEW.team_id; END;
CREATE TRIGGER workspaces_team_d AFTER DELETE ON workspaces
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = OLD.team_id; END;
CREATE TRIGGER pull_requests_team_i AFTER INSERT ON pull_requests
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = NEW.team_id; END;
CREATE TRIGGER pull_requests_team_u AFTER UPDATE ON pull_requests
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = NEW.team_id; END;
CREATE TRIGGER pull_requests_team_d AFTER DELETE ON pull_requests
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = OLD.team_id; END;
CREATE TRIGGER mission_notes_team_i AFTER INSERT ON mission_notes
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = NEW.team_id; END;
CREATE TRIGGER mission_notes_team_u AFTER UPDATE ON mission_notes
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = NEW.team_id; END;
CREATE TRIGGER mission_notes_team_d AFTER DELETE ON mission_notes
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = OLD.team_id; END;
CREATE TRIGGER workers_team_i AFTER INSERT ON workers
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = (SELECT team_id FROM workspaces WHERE id = NEW.workspace_id); END;
CREATE TRIGGER workers_team_u AFTER UPDATE ON workers
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = (SELECT team_id FROM workspaces WHERE id = NEW.workspace_id); END;
CREATE TRIGGER workers_team_d AFTER DELETE ON workers
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = (SELECT team_id FROM workspaces WHERE id = OLD.workspace_id); END;
CREATE TRIGGER checkins_team_i AFTER INSERT ON checkins
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = (SELECT team_id FROM missions WHERE id = NEW.mission_id); END;
CREATE TRIGGER checkins_team_u AFTER UPDATE ON checkins
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = (SELECT team_id FROM missions WHERE id = NEW.mission_id); END;
CREATE TRIGGER checkins_team_d AFTER DELETE ON checkins
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = (SELECT team_id FROM missions WHERE id = OLD.mission_id); END;
CREATE TRIGGER check_runs_team_i AFTER INSERT ON check_runs
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = (SELECT team_id FROM pull_requests WHERE id = NEW.pr_id); END;
CREATE TRIGGER check_runs_team_u AFTER UPDATE ON check_runs
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = (SELECT team_id FROM pull_requests WHERE id = NEW.pr_id); END;
CREATE TRIGGER check_runs_team_d AFTER DELETE ON check_runs
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = (SELECT team_id FROM pull_requests WHERE id = OLD.pr_id); END;
CREATE TRIGGER pr_reviews_team_i AFTER INSERT ON pr_reviews
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = (SELECT team_id FROM pull_requests WHERE id = NEW.pr_id); END;
CREATE TRIGGER pr_reviews_team_u AFTER UPDATE ON pr_reviews
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = (SELECT team_id FROM pull_requests WHERE id = NEW.pr_id); END;
CREATE TRIGGER pr_reviews_team_d AFTER DELETE ON pr_reviews
BEGIN UPDATE teams SET changes = changes + 1 WHERE id = (SELECT team_id FROM pull_requests WHERE id = OLD.pr_id); END;
