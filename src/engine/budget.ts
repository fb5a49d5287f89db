/**
 * A request's time budget, checked cooperatively: the engine is synchronous, so a server can
 * only stop a long request where the engine looks at the clock. Without one, nothing is checked.
 */
export interface Budget {
  /** Throws BudgetExceeded once the budget is spent. */
  check(): void;
}

/** Thrown by Budget.check; the router turns it into a 422 naming the budget. */
export class BudgetExceeded extends Error {
  constructor(readonly budgetMs: number) {
    super(`request exceeded its time budget of ${budgetMs} ms`);
  }
}

/** The budget of the local engine and of every caller that gives none: unlimited. */
export const NO_BUDGET: Budget = { check() {} };

/** A budget of `ms` from now, read from `clock` (performance.now by default). */
export function createBudget(ms: number, clock: () => number = () => performance.now()): Budget {
  const deadline = clock() + ms;
  return {
    check() {
      if (clock() >= deadline) throw new BudgetExceeded(ms);
    },
  };
}

/** How many loop turns pass between two looks at the clock (a power of two, minus one). */
export const CHECK_EVERY = 1023;
