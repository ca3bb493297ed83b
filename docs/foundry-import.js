// Delve -> Foundry VTT 13: import a whole export folder into this world, links intact.
//
// 1. Put the folder Delve wrote (delve site/region --format foundry -o NAME, or
//    delve tables export --all --format foundry -o NAME) in Foundry's user data as
//    Data/delve/NAME (the scenes look for their pictures there).
// 2. Make a new Script macro, paste this file into it, and run it as a Gamemaster.
// 3. Give the folder's path (delve/NAME) when asked.
//
// Every document keeps the id Delve gave it, so map notes open their journal pages and linked
// roll tables draw from each other. Running it again replaces the documents of that export.
const answer = await foundry.applications.api.DialogV2.prompt({
  window: { title: "Import a Delve export" },
  content: '<p>The folder under Data that holds <code>delve-foundry.json</code>:</p>' +
    '<input name="path" type="text" value="delve/" autofocus>',
  ok: { label: "Import", callback: (event, button) => button.form.elements.path.value.trim() },
  rejectClose: false,
});
if (!answer) return;
const base = answer.replace(/\/+$/, "");
const load = async (file) => {
  const response = await fetch(foundry.utils.getRoute(`${base}/${file}`));
  if (!response.ok) throw new Error(`${base}/${file}: ${response.status} ${response.statusText}`);
  return response.json();
};
let index;
try {
  index = await load("delve-foundry.json");
} catch (err) {
  return ui.notifications.error(`Delve: no delve-foundry.json in ${base} (${err.message})`);
}
if (index.format !== "delve-foundry") return ui.notifications.error("Delve: not a Delve export");
const classes = { JournalEntry, RollTable, Scene };
const folders = {};
const label = `Delve: ${base.split("/").pop()}`;
let count = 0;
for (const entry of index.documents) {
  const cls = classes[entry.type];
  if (!cls) continue;
  const data = await load(entry.file);
  // The scenes name their pictures under the path Delve expected; follow the folder you chose.
  const src = data.background?.src;
  if (src && index.path && src.startsWith(index.path)) {
    data.background.src = base + src.slice(index.path.length);
  }
  // One folder a type, made on the first run and found again on the next.
  folders[entry.type] ??=
    game.folders.find((f) => f.type === entry.type && f.name === label) ??
    (await Folder.create({ name: label, type: entry.type }));
  data.folder = folders[entry.type].id;
  const existing = game.collections.get(entry.type).get(data._id);
  if (existing) await existing.delete();
  await cls.create(data, { keepId: true });
  count += 1;
}
ui.notifications.info(`Delve: imported ${count} documents from ${base}`);
