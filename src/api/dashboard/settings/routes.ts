/** The dashboard's JSON endpoints of the Webhooks, API keys and Platforms pages. */
import type { Endpoint } from '../../../http/contract.ts';
import credentials from './credentials.ts';
import sendTestWebhook from './send-test-webhook.ts';
import platformSettings from './platform-settings.ts';
import setSyncDefaults from './set-sync-defaults.ts';

export const settingsEndpoints: Endpoint[] = [credentials, sendTestWebhook, platformSettings, setSyncDefaults];
