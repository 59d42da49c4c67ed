/**
 * This tab's purchases still waiting for their answer. The server tells every tab of the new gold
 * (`shop:goldChanged`), and that echo may reach the buying tab before its own answer does: it waits
 * for the answer, then sees the gold it already shows.
 */
let inFlight: Array<Promise<unknown>> = [];

export function purchaseStarted(answer: Promise<unknown>): void {
  const settled = answer.then(
    () => undefined,
    () => undefined,
  );
  inFlight.push(settled);
  void settled.then(() => {
    inFlight = inFlight.filter((p) => p !== settled);
  });
}

/** Resolves once every purchase of this tab under way now has its answer (or failed). */
export const purchasesSettled = (): Promise<unknown> => Promise.all(inFlight);
