-- AlterTable
ALTER TABLE "Session" ADD COLUMN "mode" TEXT;

-- CreateTable
CREATE TABLE "PermissionRule" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "scope" TEXT NOT NULL,
    "owner" TEXT NOT NULL DEFAULT '',
    "action" TEXT NOT NULL,
    "pattern" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "PermissionDecision" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "sessionId" TEXT,
    "sessionTitle" TEXT NOT NULL,
    "workspace" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "tool" TEXT NOT NULL,
    "effect" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "by" TEXT NOT NULL,
    "rulePattern" TEXT,
    "ruleScope" TEXT,
    "mode" TEXT NOT NULL,
    "answerScope" TEXT,
    "message" TEXT,
    "requestedAt" DATETIME NOT NULL,
    "decidedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "PermissionRule_scope_owner_idx" ON "PermissionRule"("scope", "owner");

-- CreateIndex
CREATE UNIQUE INDEX "PermissionRule_scope_owner_pattern_key" ON "PermissionRule"("scope", "owner", "pattern");

-- CreateIndex
CREATE INDEX "PermissionDecision_decidedAt_idx" ON "PermissionDecision"("decidedAt");

-- CreateIndex
CREATE INDEX "PermissionDecision_sessionId_decidedAt_idx" ON "PermissionDecision"("sessionId", "decidedAt");
