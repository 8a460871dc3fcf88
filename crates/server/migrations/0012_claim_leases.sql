-- Claims became leases that every report renews: claims taken before had no renewal, so
-- each one in flight starts a fresh lease instead of running out at once.
UPDATE tasks SET expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+60 minutes')
WHERE status IN ('assigned', 'in_progress') AND expires_at IS NOT NULL;

CREATE INDEX tasks_by_lease ON tasks (expires_at)
WHERE status IN ('assigned', 'in_progress') AND expires_at IS NOT NULL;
