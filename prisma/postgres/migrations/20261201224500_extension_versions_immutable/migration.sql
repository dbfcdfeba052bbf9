-- Extension versions are immutable (EXT-2), enforced by the database as on SQLite (migration *_extensions):
-- an UPDATE of "ExtensionVersion" fails. Hand-written: Prisma has no notation for triggers.

CREATE FUNCTION "ExtensionVersion_refuse_update"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'extension versions are immutable';
END;
$$;

CREATE TRIGGER "ExtensionVersion_immutable" BEFORE UPDATE ON "ExtensionVersion" FOR EACH ROW
  EXECUTE FUNCTION "ExtensionVersion_refuse_update"();
