// Renders CSL-JSON items with citeproc-js (the engine of Zotero and Mendeley) for the tests.
// stdin: {"style": CSL XML, "locale": locale XML, "items": [CSL-JSON]}; stdout: {id: text}.
const CSL = require(process.env.CITEPROC_JS);

let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const { style, locale, items } = JSON.parse(input);
  const byId = Object.fromEntries(items.map((item) => [item.id, item]));
  const engine = new CSL.Engine(
    { retrieveLocale: () => locale, retrieveItem: (id) => byId[id] },
    style,
  );
  engine.setOutputFormat("text");
  engine.updateItems(items.map((item) => item.id));
  const [meta, entries] = engine.makeBibliography();
  const printed = {};
  meta.entry_ids.forEach((ids, k) => (printed[ids[0]] = entries[k].trim()));
  process.stdout.write(JSON.stringify(printed));
});
