import { lazy } from 'react';
import { useLocation, useParams, useSearch } from 'wouter';
import { PageSuspense } from './page-suspense.tsx';
import { lazyPiece } from '../ui/error-boundary.tsx';

/**
 * The newcomers' pages (Layout 1): /home (what Tandem is and its downloads), /guide (installing the
 * package), /helper and /helper/<article> (the help centre), /feedback (uninstall feedback) and the
 * not-found page. Each is a chunk fetched when first opened; none is on the first screen.
 */
const HomePage = lazy(() => import('../newcomers/home-page.tsx').then((module) => ({ default: module.HomePage })));
const GuidePage = lazy(() => import('../newcomers/guide-page.tsx').then((module) => ({ default: module.GuidePage })));
const HelperPage = lazy(() => import('../newcomers/helper-page.tsx').then((module) => ({ default: module.HelperPage })));
const FeedbackPage = lazy(() => import('../newcomers/feedback-page.tsx').then((module) => ({ default: module.FeedbackPage })));
const NotFoundPage = lazy(() => import('../newcomers/not-found-page.tsx').then((module) => ({ default: module.NotFoundPage })));

export function HomeRoute() {
  const [, navigate] = useLocation();
  return (
    <PageSuspense>
      <HomePage onNavigate={navigate} />
    </PageSuspense>
  );
}

export function GuideRoute() {
  const [, navigate] = useLocation();
  return (
    <PageSuspense>
      <GuidePage onNavigate={navigate} />
    </PageSuspense>
  );
}

export function HelperRoute() {
  const [, navigate] = useLocation();
  const { slug } = useParams<{ slug?: string }>();
  return (
    <PageSuspense>
      <HelperPage slug={slug} onNavigate={navigate} />
    </PageSuspense>
  );
}

export function FeedbackRoute() {
  const [, navigate] = useLocation();
  const search = useSearch();
  return (
    <PageSuspense>
      <FeedbackPage onNavigate={navigate} search={search} />
    </PageSuspense>
  );
}

export function NotFoundRoute() {
  const [, navigate] = useLocation();
  return (
    <PageSuspense>
      <NotFoundPage onHome={() => navigate('/')} onHelp={() => navigate('/helper')} />
    </PageSuspense>
  );
}

/** "Chat not found" inside the chat layout: an address that names no chat of this account. */
export function ChatNotFound({ onHome }: { onHome: () => void }) {
  return (
    <PageSuspense>
      <NotFoundPage kind="chat" onHome={onHome} fullHeight={false} />
    </PageSuspense>
  );
}

/** Settings' way to the help centre. */
export const HelpSettingsSection = lazyPiece(() => import('../newcomers/help-entry.tsx').then((module) => ({ default: module.HelpSettingsSection })));

/** Settings' Extension section on the web page: the download page and the installation guide. */
export const GetExtensionSettingsSection = lazyPiece(() => import('../newcomers/help-entry.tsx').then((module) => ({ default: module.GetExtensionSection })));
