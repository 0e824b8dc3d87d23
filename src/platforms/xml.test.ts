import { describe, expect, it } from 'vitest';
import { buildXml, parseXml, XmlSyntaxError } from './xml.ts';

describe('parseXml', () => {
  it('keeps element text as written: exact decimals and leading zeros', () => {
    expect(parseXml('<Bill><Amount>10.10</Amount><RefNumber>007</RefNumber></Bill>')).toEqual({
      Bill: { Amount: '10.10', RefNumber: '007' },
    });
  });

  it('reads attributes with @_ and text beside them as #text, decoding entities', () => {
    expect(parseXml('<Name lang="en">Smith &amp; Sons</Name>')).toEqual({ Name: { '@_lang': 'en', '#text': 'Smith & Sons' } });
  });

  it('makes the named paths lists even with one element', () => {
    const parsed = parseXml('<Rs><Line><Id>1</Id></Line></Rs>', { arrays: new Set(['Rs.Line']) });
    expect(parsed).toEqual({ Rs: { Line: [{ Id: '1' }] } });
  });

  it('drops namespace prefixes when asked', () => {
    const envelope = '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><ping/></soap:Body></soap:Envelope>';
    expect(parseXml(envelope, { removeNSPrefix: true })).toMatchObject({ Envelope: { Body: { ping: '' } } });
    expect(parseXml(envelope)).toMatchObject({ 'soap:Envelope': { 'soap:Body': { ping: '' } } });
  });

  it('refuses a document that is not well formed, with its line', () => {
    expect(() => parseXml('<a>\n<b></a>')).toThrow(XmlSyntaxError);
    expect(() => parseXml('<html><body>Bad gateway')).toThrow(/not well formed/);
  });

  it('refuses a document declaring an external entity instead of reading it', () => {
    const text = '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>';
    expect(() => parseXml(text)).toThrow(XmlSyntaxError);
  });
});

describe('buildXml', () => {
  it('writes what parseXml reads, escaping text', () => {
    const value = { Bill: { '@_id': '1', Memo: 'A < B & C', Amount: '10.10' } };
    const xml = buildXml(value);
    expect(xml.startsWith('<?xml version="1.0" encoding="utf-8"?><Bill id="1">')).toBe(true);
    expect(xml).toContain('A &lt; B &amp; C');
    expect(parseXml(xml)).toEqual(value);
  });
});
