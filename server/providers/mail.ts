import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';

export type Mail = { to: string; subject: string; text: string };

/** The From of the server's e-mails: SMTP_FROM, else no-reply@ the public host. */
export function mailFrom(config: Pick<Config, 'SMTP_FROM' | 'publicUrl'>): string {
  if (config.SMTP_FROM) return config.SMTP_FROM;
  const host = new URL(config.publicUrl).hostname;
  return `no-reply@${host.includes('.') ? host : `${host}.invalid`}`;
}

/** Whether the server can send e-mail (SMTP_URL set). */
export const mailConfigured = (config: Pick<Config, 'SMTP_URL'>) => !!config.SMTP_URL;

/**
 * Sends one e-mail through SMTP_URL; throws when the server refuses it or cannot be reached in time,
 * so the caller can say it was not sent.
 */
export async function sendMail(config: Pick<Config, 'SMTP_URL' | 'SMTP_FROM' | 'publicUrl'>, mail: Mail): Promise<void> {
  if (!config.SMTP_URL) throw new Error('SMTP_URL is not set');
  const transport = nodemailer.createTransport({
    url: config.SMTP_URL,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  try {
    await transport.sendMail({ from: mailFrom(config), to: mail.to, subject: mail.subject, text: mail.text });
  } finally {
    transport.close();
  }
}
