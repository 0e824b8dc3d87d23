/** POST /accounting/invoice_credit_applications/unapply (the shared implementation: src/api/accounting/credit-applications). */
import { unapplyCreditEndpoint } from '../credit-applications/unapply.ts';
import { CREDIT_SIDES } from '../credit-applications/shared.ts';

export default unapplyCreditEndpoint(CREDIT_SIDES.invoice_credit_memo);
