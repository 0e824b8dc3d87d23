/** POST /accounting/bill_credit_applications (the shared implementation: src/api/accounting/credit-applications). */
import { applyCreditEndpoint } from '../credit-applications/apply.ts';
import { CREDIT_SIDES } from '../credit-applications/shared.ts';

export default applyCreditEndpoint(CREDIT_SIDES.bill_credit_memo);
