/** A bench option: `--name=value` on the command line, else env `BENCH_NAME` (dashes as underscores), else `fallback`. */
export function option(name: string, fallback: string): string {
  const flag = process.argv.find((a) => a.startsWith(`--${name}=`));
  if (flag) return flag.slice(name.length + 3);
  return process.env[`BENCH_${name.toUpperCase().replace(/-/g, '_')}`] ?? fallback;
}
