import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FeedbackPage } from '../../../components/newcomers/feedback-page.tsx';
import { validateFeedback } from '../../../components/newcomers/feedback-form.ts';
import { setLanguage } from '../../../shared/i18n/i18n.ts';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { renderInApp } from '../../helpers/render-app.tsx';

const server = serveTheseTests(fakeApi({ '/api/System/AddFeedback': answer({ feedbackId: 'f1' }) }));
const sent = () => server.requests.filter((r) => r.url.startsWith('/api/System/AddFeedback')).map((r) => JSON.parse(r.body));

describe('uninstall feedback', () => {
  it('has the form rule: at least one reason, and words for "other"', () => {
    expect(validateFeedback({ reasons: [], otherText: '' })).toBe('reasonRequired');
    expect(validateFeedback({ reasons: ['other'], otherText: '  ' })).toBe('otherRequired');
    expect(validateFeedback({ reasons: ['other'], otherText: 'slow' })).toBeNull();
    expect(validateFeedback({ reasons: ['price'], otherText: '' })).toBeNull();
  });

  it('says a reason is needed, then that "other" needs text, and sends nothing until both hold', async () => {
    const user = userEvent.setup();
    await renderInApp(<FeedbackPage onNavigate={vi.fn()} search="?v=0.1.0&browser=edge" />, { apiBase: server.url });
    await user.click(screen.getByRole('button', { name: 'Send feedback' }));
    expect(await screen.findByText('Please choose at least one reason.')).toBeInTheDocument();

    await user.click(screen.getByLabelText('Other'));
    expect(screen.queryByText('Please choose at least one reason.')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Send feedback' }));
    expect(await screen.findByText('Please tell us more about the other reason.')).toBeInTheDocument();
    expect(sent()).toEqual([]);

    await user.type(screen.getByPlaceholderText('Tell us more'), 'It was slow');
    await user.click(screen.getByLabelText('Prices exceed my budget'));
    await user.click(screen.getByRole('button', { name: 'Send feedback' }));
    expect(await screen.findByTestId('feedback-thanks')).toHaveTextContent('Thank you for your feedback');
    expect(sent()).toEqual([{ reasons: ['price', 'other'], otherText: 'It was slow', browser: 'edge', version: '0.1.0', language: 'en' }]);
  });

  it('shows the reasons in Chinese', async () => {
    await renderInApp(<FeedbackPage onNavigate={vi.fn()} search="" />, { apiBase: server.url });
    await setLanguage('zh');
    await waitFor(() => expect(screen.getByLabelText('隐私顾虑')).toBeInTheDocument());
    expect(screen.getByRole('button', { name: '提交反馈' })).toBeInTheDocument();
  });
});
