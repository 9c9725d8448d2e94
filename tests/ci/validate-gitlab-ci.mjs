// Validates a GitLab CI file against GitLab's own JSON schema of .gitlab-ci.yml
// (app/assets/javascripts/editor/schema/ci.json, as the npm package
// gitlab-ci-local ships it), with the Ajv options gitlab-ci-local uses itself.
// Usage: node validate-gitlab-ci.mjs <gitlab-ci-local package dir> <file.yml>
// Exit status: 0 valid, 1 invalid (errors on stderr), 2 bad usage or input.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [packageDir, file] = process.argv.slice(2);
if (!packageDir || !file) {
  console.error("usage: validate-gitlab-ci.mjs <gitlab-ci-local package dir> <file.yml>");
  process.exit(2);
}
const require = createRequire(path.join(packageDir, "package.json"));
const Ajv = require("ajv");
const yaml = require("js-yaml");
const { schema } = await import(pathToFileURL(path.join(packageDir, "src", "schema", "schema.js")).href);

let document;
try {
  document = yaml.load(readFileSync(file, "utf8"));
} catch (error) {
  console.error(`${file}: ${error.message}`);
  process.exit(2);
}
const ajv = new (Ajv.default ?? Ajv)({
  allErrors: true, allowUnionTypes: true, validateFormats: false, strictTypes: false,
  keywords: ["markdownDescription"],
});
const validate = ajv.compile(schema);
if (validate(document)) {
  console.log(`${file}: valid against ${schema.$id}`);
  process.exit(0);
}
for (const error of validate.errors) {
  console.error(`${file}: ${error.instancePath || "/"}: ${error.message} (${error.schemaPath})`);
}
process.exit(1);
