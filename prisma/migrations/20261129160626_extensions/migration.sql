-- CreateTable
CREATE TABLE "ExtensionPackage" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "sessionId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ExtensionPackage_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "Session" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ExtensionVersion" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "packageId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "hostCode" TEXT,
    "browserCode" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ExtensionVersion_packageId_fkey" FOREIGN KEY ("packageId") REFERENCES "ExtensionPackage" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ExtensionDecision" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "versionId" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "by" TEXT NOT NULL,
    "allowFuture" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ExtensionDecision_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "ExtensionVersion" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ExtensionGrant" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "packageId" TEXT NOT NULL,
    "fromVersion" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" DATETIME,
    CONSTRAINT "ExtensionGrant_packageId_fkey" FOREIGN KEY ("packageId") REFERENCES "ExtensionPackage" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "ExtensionPackage_sessionId_name_key" ON "ExtensionPackage"("sessionId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "ExtensionVersion_packageId_number_key" ON "ExtensionVersion"("packageId", "number");

-- CreateIndex
CREATE INDEX "ExtensionDecision_versionId_createdAt_idx" ON "ExtensionDecision"("versionId", "createdAt");

-- CreateIndex
CREATE INDEX "ExtensionGrant_packageId_revokedAt_idx" ON "ExtensionGrant"("packageId", "revokedAt");

-- Versions are immutable (EXT-2): the database refuses to change one.
CREATE TRIGGER "ExtensionVersion_immutable" BEFORE UPDATE ON "ExtensionVersion"
BEGIN
    SELECT RAISE(ABORT, 'extension versions are immutable');
END;
