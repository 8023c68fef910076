// tsserver `require()`s a plugin and calls `module.exports`, so this entry is CommonJS; it
// loads the ES-module plugin with require(esm), which Node runs unflagged from 20.19
// (the package's engines floor) and the Electron of current VS Code has too.
import plugin = require("./plugin.js");

export = plugin.init;
