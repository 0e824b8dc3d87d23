/** Loaded with `node --import` into worker processes of tests (budgetWorkerEnv): registers the budget platform. */
import { registerBudgetConnector } from './budget-platform.ts';

registerBudgetConnector();
