// Runs docs/foundry-import.js outside Foundry, against an export folder, with Foundry's API
// stubbed: what the macro would create, in what order, with what options, is printed as JSON.
//
//   node macro_stub.js MACRO.js EXPORT_FOLDER ANSWER RUNS
//
// ANSWER is what the referee types in the macro's dialog (the folder's path under Data, as
// "delve/NAME"); the stub serves that path from EXPORT_FOLDER whatever NAME is, as Foundry
// would serve Data/delve/NAME. RUNS is how many times to run the macro (a second run must
// replace the first's documents, not add to them).
"use strict";
const fs = require("fs");
const path = require("path");

const [macroFile, folder, answer, runs] = process.argv.slice(2);
const macro = fs.readFileSync(macroFile, "utf8");
const base = answer.replace(/\/+$/, "");
const log = { created: [], deleted: [], folders: [], errors: [], infos: [], fetched: [] };
const stored = { JournalEntry: new Map(), RollTable: new Map(), Scene: new Map() };

function documentClass(type) {
  return class {
    static async create(data, options) {
      const copy = JSON.parse(JSON.stringify(data));
      log.created.push({ type, id: copy._id, keepId: Boolean(options && options.keepId),
                         folder: copy.folder, background: copy.background?.src ?? null });
      stored[type].set(copy._id, { ...copy, delete: async () => {
        log.deleted.push({ type, id: copy._id });
        stored[type].delete(copy._id);
      } });
      return copy;
    }
  };
}

const sandbox = {
  JournalEntry: documentClass("JournalEntry"),
  RollTable: documentClass("RollTable"),
  Scene: documentClass("Scene"),
  Folder: { create: async (data) => {
    const made = { ...data, id: `F${log.folders.length + 1}` };
    log.folders.push(made);
    return made;
  } },
  game: { collections: new Map(Object.entries(stored)), folders: log.folders },
  ui: { notifications: { info: (m) => log.infos.push(m), error: (m) => log.errors.push(m) } },
  foundry: {
    applications: { api: { DialogV2: { prompt: async () => answer } } },
    utils: { getRoute: (p) => `/${p}` },
  },
  fetch: async (url) => {
    const rel = decodeURI(url).slice(1);
    log.fetched.push(rel);
    if (!rel.startsWith(`${base}/`)) return { ok: false, status: 404, statusText: "Not Found" };
    const file = path.join(folder, rel.slice(base.length + 1));
    if (!fs.existsSync(file)) return { ok: false, status: 404, statusText: "Not Found" };
    const text = fs.readFileSync(file, "utf8");
    return { ok: true, json: async () => JSON.parse(text) };
  },
};

// A Foundry script macro is the body of an async function: it may await and return.
const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
const run = new AsyncFunction(...Object.keys(sandbox), macro);
(async () => {
  for (let i = 0; i < Number(runs || 1); i++) await run(...Object.values(sandbox));
  log.stored = Object.fromEntries(Object.entries(stored).map(([k, v]) => [k, v.size]));
  process.stdout.write(JSON.stringify(log));
})().catch((err) => {
  process.stderr.write(`macro failed: ${err.stack || err}\n`);
  process.exit(1);
});
