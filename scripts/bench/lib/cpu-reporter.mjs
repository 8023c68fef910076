/**
 * Preloaded (`node --import`) into every timed child process: at exit it prints the
 * process's own CPU time, so a figure survives a machine busy with other work
 * (wall time does not). Printed on stderr as one `@@bench {...}` line.
 */
process.on("exit", () => {
  const { user, system } = process.cpuUsage();
  process.stderr.write(`\n@@bench ${JSON.stringify({ cpuMs: (user + system) / 1000 })}\n`);
});
