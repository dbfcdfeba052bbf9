/**
 * A child for the killed-write test: `node --import tsx atomic-writer.ts <target> <bytes> <fill>` prints
 * "writing" and then atomically writes <bytes> bytes of <fill> to <target>; the test SIGKILLs it midway.
 */
import { atomicWrite } from "../../src/workspace/atomic-write.js";

const [target, size, fill] = process.argv.slice(2);
if (!target || !size || !fill) throw new Error("usage: atomic-writer.ts <target> <bytes> <fill>");
const data = Buffer.alloc(Number(size), fill);
process.stdout.write("writing\n");
await atomicWrite(target, data);
process.stdout.write("done\n");
