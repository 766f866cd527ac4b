// The timer of the micro-benchmarks: the median of `runs` runs of `fn`, in ms.
import "./help.mjs"; // --help prints the comment above and exits, writing nothing
export function medianMs(fn, runs = 5) {
  const times = [];
  for (let k = 0; k < runs; k++) {
    const t = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}
