/**
 * Uploads of attachments (POST /v1/Attachments): a file attached to a journal entry, bill, invoice or expense. The content is
 * kept as base64 text, exactly like the generated attachments, so the connector maps both the same
 * way (file_url = data:<ContentType>;base64,<Content>) and the service's download route serves both.
 */
import { ATTACHMENT_PARENT_NAMES, ATTACHMENT_PARENT_TYPES } from '../collections.ts';
import type { NativeAttachment } from '../native.ts';
import { invalid } from '../native-error.ts';
import type { Unit } from '../store/unit.ts';
import { existing, oneOf, text, type Body } from './validate.ts';

/** Largest file the platform takes, decoded. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
const MAX_FILE_NAME = 255;

/**
 * type/subtype and nothing else: parameters (";charset=…") would break the data URL the content is
 * served as, whose ";base64," must follow the type directly.
 */
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;
/**
 * Standard alphabet, padded (with a length that is a multiple of 4): what Buffer#toString('base64')
 * writes and the data URL decoder reads. One flat character class: a pattern of repeated groups
 * recurses per group and overflows the stack on a 10 MiB file.
 */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Path separators and control characters: a file name is a name, not a path. */
function hasUnsafeCharacter(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code < 32 || code === 127 || code === 47 || code === 92) return true;
  }
  return false;
}

function fileName(body: Body): string {
  const value = body.FileName;
  if (value === undefined || value === null || value === '') throw invalid('RequiredField', 'FileName is required', 'FileName');
  if (typeof value !== 'string') throw invalid('InvalidField', 'FileName must be text', 'FileName');
  if (value.length > MAX_FILE_NAME) throw invalid('InvalidField', `FileName must be at most ${MAX_FILE_NAME} characters`, 'FileName');
  if (value.trim() === '') throw invalid('InvalidField', 'FileName must not be blank', 'FileName');
  if (hasUnsafeCharacter(value)) throw invalid('InvalidField', 'FileName must not contain path separators or control characters', 'FileName');
  return value;
}

function contentType(body: Body): string {
  const value = text(body, 'ContentType', true).trim().toLowerCase();
  if (!MEDIA_TYPE.test(value))
    throw invalid('InvalidField', 'ContentType must be a media type such as text/csv or application/pdf, without parameters', 'ContentType');
  return value;
}

function content(body: Body): Buffer {
  const value = body.Content;
  if (value === undefined || value === null || value === '')
    throw invalid('RequiredField', 'Content is required (the file, base64-encoded)', 'Content');
  if (typeof value !== 'string') throw invalid('InvalidField', 'Content must be the file as base64 text', 'Content');
  // Line breaks of MIME-style base64 are tolerated; anything else must be the standard alphabet.
  const compact = value.replace(/\s+/g, '');
  // Size first: no point checking 50 MB of text for a file that is refused anyway.
  if (Math.floor((compact.length * 3) / 4) - (compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0) > MAX_ATTACHMENT_BYTES) {
    throw invalid('FileTooLarge', `the file is larger than ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MiB`, 'Content');
  }
  if (compact.length % 4 !== 0 || !BASE64.test(compact))
    throw invalid('InvalidField', 'Content must be base64 (standard alphabet, padded)', 'Content');
  return Buffer.from(compact, 'base64');
}

export async function uploadAttachment(unit: Unit, body: Body): Promise<NativeAttachment> {
  if (body.ParentType === undefined || body.ParentType === null) throw invalid('RequiredField', 'ParentType is required', 'ParentType');
  const parentType = oneOf(body, 'ParentType', ATTACHMENT_PARENT_NAMES, 'JournalEntry');
  const parentId = text(body, 'ParentId', true);
  await existing(unit, ATTACHMENT_PARENT_TYPES[parentType], parentId, 'ParentId');
  const name = fileName(body);
  const type = contentType(body);
  const bytes = content(body);
  const attachment: NativeAttachment = {
    Id: unit.nextId('attachment'),
    CreatedAt: unit.at,
    UpdatedAt: unit.at,
    FileName: name,
    ContentType: type,
    Size: bytes.length,
    // Re-encoded: the stored text is canonical whatever line breaks the upload had.
    Content: bytes.toString('base64'),
    ParentType: parentType,
    ParentId: parentId,
  };
  unit.create('attachment', attachment);
  return attachment;
}

/** A record's files go with it when it is deleted (a journal entry, bill or invoice; the clock's deletions too). */
export async function removeAttachmentsOf(unit: Unit, parentId: string): Promise<void> {
  for (
    let attachmentId = await unit.findBy('attachment', 'ParentId', parentId, null);
    attachmentId !== null;
    attachmentId = await unit.findBy('attachment', 'ParentId', parentId, null)
  ) {
    if ((await unit.get('attachment', attachmentId)) === null) break;
    unit.remove('attachment', attachmentId);
  }
}
