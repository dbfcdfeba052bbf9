-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "workspace" TEXT NOT NULL,
    "mode" TEXT,
    "lastSeq" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Turn" (
    "id" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "mode" TEXT NOT NULL,
    "steps" INTEGER NOT NULL DEFAULT 0,
    "reason" TEXT,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" TIMESTAMP(3),

    CONSTRAINT "Turn_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Message" (
    "id" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "turnId" TEXT,
    "seq" INTEGER NOT NULL,
    "role" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ToolCall" (
    "id" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "turnId" TEXT,
    "seq" INTEGER NOT NULL,
    "callId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "argsJson" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "canonicalJson" TEXT,
    "rendered" TEXT,
    "errorCode" TEXT,
    "errorMessage" TEXT,
    "approval" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "endedAt" TIMESTAMP(3),

    CONSTRAINT "ToolCall_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Fact" (
    "id" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "turnId" TEXT,
    "seq" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "payloadJson" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Fact_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Setting" (
    "key" TEXT NOT NULL,
    "valueJson" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Setting_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "McpServer" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "configJson" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "McpServer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ExtensionPackage" (
    "id" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ExtensionPackage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ExtensionVersion" (
    "id" TEXT NOT NULL,
    "packageId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "hostCode" TEXT,
    "browserCode" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ExtensionVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ExtensionDecision" (
    "id" TEXT NOT NULL,
    "versionId" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "by" TEXT NOT NULL,
    "allowFuture" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ExtensionDecision_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ExtensionGrant" (
    "id" TEXT NOT NULL,
    "packageId" TEXT NOT NULL,
    "fromVersion" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "ExtensionGrant_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PermissionRule" (
    "id" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "owner" TEXT NOT NULL DEFAULT '',
    "action" TEXT NOT NULL,
    "pattern" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PermissionRule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PermissionDecision" (
    "id" TEXT NOT NULL,
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
    "requestedAt" TIMESTAMP(3) NOT NULL,
    "decidedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PermissionDecision_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Session_updatedAt_idx" ON "Session"("updatedAt");

-- CreateIndex
CREATE INDEX "Turn_sessionId_startedAt_idx" ON "Turn"("sessionId", "startedAt");

-- CreateIndex
CREATE INDEX "Message_turnId_idx" ON "Message"("turnId");

-- CreateIndex
CREATE UNIQUE INDEX "Message_sessionId_seq_key" ON "Message"("sessionId", "seq");

-- CreateIndex
CREATE INDEX "ToolCall_turnId_idx" ON "ToolCall"("turnId");

-- CreateIndex
CREATE UNIQUE INDEX "ToolCall_sessionId_seq_key" ON "ToolCall"("sessionId", "seq");

-- CreateIndex
CREATE INDEX "Fact_turnId_idx" ON "Fact"("turnId");

-- CreateIndex
CREATE UNIQUE INDEX "Fact_sessionId_seq_key" ON "Fact"("sessionId", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "McpServer_name_key" ON "McpServer"("name");

-- CreateIndex
CREATE UNIQUE INDEX "ExtensionPackage_sessionId_name_key" ON "ExtensionPackage"("sessionId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "ExtensionVersion_packageId_number_key" ON "ExtensionVersion"("packageId", "number");

-- CreateIndex
CREATE INDEX "ExtensionDecision_versionId_createdAt_idx" ON "ExtensionDecision"("versionId", "createdAt");

-- CreateIndex
CREATE INDEX "ExtensionGrant_packageId_revokedAt_idx" ON "ExtensionGrant"("packageId", "revokedAt");

-- CreateIndex
CREATE INDEX "PermissionRule_scope_owner_idx" ON "PermissionRule"("scope", "owner");

-- CreateIndex
CREATE UNIQUE INDEX "PermissionRule_scope_owner_pattern_key" ON "PermissionRule"("scope", "owner", "pattern");

-- CreateIndex
CREATE INDEX "PermissionDecision_decidedAt_idx" ON "PermissionDecision"("decidedAt");

-- CreateIndex
CREATE INDEX "PermissionDecision_sessionId_decidedAt_idx" ON "PermissionDecision"("sessionId", "decidedAt");

-- AddForeignKey
ALTER TABLE "Turn" ADD CONSTRAINT "Turn_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "Session"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "Session"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_turnId_fkey" FOREIGN KEY ("turnId") REFERENCES "Turn"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ToolCall" ADD CONSTRAINT "ToolCall_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "Session"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ToolCall" ADD CONSTRAINT "ToolCall_turnId_fkey" FOREIGN KEY ("turnId") REFERENCES "Turn"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Fact" ADD CONSTRAINT "Fact_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "Session"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Fact" ADD CONSTRAINT "Fact_turnId_fkey" FOREIGN KEY ("turnId") REFERENCES "Turn"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ExtensionPackage" ADD CONSTRAINT "ExtensionPackage_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "Session"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ExtensionVersion" ADD CONSTRAINT "ExtensionVersion_packageId_fkey" FOREIGN KEY ("packageId") REFERENCES "ExtensionPackage"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ExtensionDecision" ADD CONSTRAINT "ExtensionDecision_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "ExtensionVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ExtensionGrant" ADD CONSTRAINT "ExtensionGrant_packageId_fkey" FOREIGN KEY ("packageId") REFERENCES "ExtensionPackage"("id") ON DELETE CASCADE ON UPDATE CASCADE;
