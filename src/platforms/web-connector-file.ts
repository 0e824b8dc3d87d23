/**
 * The .qwc file the end user adds to Intuit's Web Connector (QBWC programmer's guide, "The QWC file"): where to call,
 * as whom, and how often. It holds no secret: the password is typed into the Web Connector once, from the link page.
 */
import type { WebConnectorFile } from './polled.ts';
import { buildXml } from './xml.ts';

export interface WebConnectorFileInput {
  file: WebConnectorFile;
  /** Our SOAP endpoint (AppURL): https, except for localhost, which the Web Connector also accepts. */
  appUrl: string;
  /** A page about the product (AppSupport): the Web Connector refuses a file without one. */
  supportUrl: string;
  username: string;
  /** GUIDs, written as the Web Connector wants them: upper case in braces. */
  ownerId: string;
  fileId: string;
}

const guid = (uuid: string): string => `{${uuid.toUpperCase()}}`;

export function webConnectorFile(input: WebConnectorFileInput): string {
  const { file } = input;
  return buildXml(
    {
      QBWCXML: {
        AppName: file.appName,
        AppID: '',
        AppURL: input.appUrl,
        AppDescription: file.appDescription,
        AppSupport: input.supportUrl,
        UserName: input.username,
        OwnerID: guid(input.ownerId),
        FileID: guid(input.fileId),
        QBType: file.qbType,
        Scheduler: { RunEveryNMinutes: String(file.runEveryMinutes) },
        IsReadOnly: file.readOnly === true ? 'true' : 'false',
      },
    },
    '<?xml version="1.0"?>',
  );
}
