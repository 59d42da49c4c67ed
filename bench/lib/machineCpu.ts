import { readFileSync } from 'node:fs';

/**
 * Where all of the machine's CPU time went over a window, from /proc/stat, as shares of every
 * core's time (so 100 % is both cores of a 2-core machine). `stealPct` is the time the hypervisor
 * gave this VM's virtual CPUs to someone else while they had work to run: load the bench never
 * sees, that slows the server and its clients alike and varies from one instance to the next.
 */
export type MachineCpu = { userPct: number; systemPct: number; idlePct: number; stealPct: number };

// The aggregate "cpu" line: user nice system idle iowait irq softirq steal (guest time is already
// inside user and nice).
function read(): number[] | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    if (!line.startsWith('cpu ')) return undefined;
    return line.trim().split(/\s+/).slice(1, 9).map(Number);
  } catch {
    return undefined; // not Linux
  }
}

/** Starts a window; the function it returns ends it (undefined where /proc/stat is missing). */
export function machineCpu(): () => MachineCpu | undefined {
  const start = read();
  return () => {
    const end = read();
    if (!start || !end) return undefined;
    const d = end.map((v, i) => v - start[i]!);
    const total = d.reduce((a, b) => a + b, 0);
    if (total <= 0) return undefined;
    const [user, nice, system, idle, iowait, irq, softirq, steal] = d as [number, number, number, number, number, number, number, number];
    const pct = (x: number) => Math.round((x / total) * 1000) / 10;
    return { userPct: pct(user + nice), systemPct: pct(system + irq + softirq), idlePct: pct(idle + iowait), stealPct: pct(steal) };
  };
}
