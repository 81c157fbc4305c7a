"""On PostgreSQL, whatever moves the content version (a row added to or removed from its two
tables, by the site, a restore, a flush or by hand) notifies the channel `labsite_content`
when it commits: each web worker listens (labsite/page_cache/push.py) and reads the version
again only then, not on every cache hit. Nothing on SQLite, which has no such channel."""

from django.db import migrations

CHANNEL = "labsite_content"
TABLES = ("labsite_contentchange", "labsite_contentversion")


def notify_on_moves(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(
        "CREATE OR REPLACE FUNCTION labsite_content_moved() RETURNS trigger LANGUAGE plpgsql "
        f"AS $$ BEGIN PERFORM pg_notify('{CHANNEL}', ''); RETURN NULL; END $$"
    )
    for table in TABLES:
        schema_editor.execute(
            f"CREATE TRIGGER labsite_content_moved AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE "
            f"ON {table} FOR EACH STATEMENT EXECUTE FUNCTION labsite_content_moved()"
        )


def stop_notifying(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in TABLES:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS labsite_content_moved ON {table}")
    schema_editor.execute("DROP FUNCTION IF EXISTS labsite_content_moved()")


class Migration(migrations.Migration):
    dependencies = [
        ("labsite", "0007_content_changes"),
    ]

    operations = [migrations.RunPython(notify_on_moves, stop_notifying)]
