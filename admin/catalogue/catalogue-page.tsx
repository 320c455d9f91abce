import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'wouter';
import { RoutedTabs } from '../../components/ui/routed-tabs.tsx';
import { DeploymentsTab } from './deployments-tab.tsx';
import { ModelTypesTab } from './model-types-tab.tsx';
import { ModelsPage } from './models-page.tsx';
import './strings.ts';

const CATALOGUE_TABS = ['models', 'types', 'deployments'] as const;
type CatalogueTab = (typeof CATALOGUE_TABS)[number];

const PANELS: Record<CatalogueTab, () => React.ReactNode> = {
  models: () => <ModelsPage />,
  types: () => <ModelTypesTab />,
  deployments: () => <DeploymentsTab />,
};

/**
 * Where each tab lives: the models at /admin/models (as before), the others under /admin/models/tab/
 * (two segments, so no model id, which is one, can be taken for a tab).
 */
export const catalogueTabPath = (tab: CatalogueTab) => (tab === 'models' ? '/admin/models' : `/admin/models/tab/${tab}`);

/** /admin/models and /admin/models/tab/:tab — the catalogue's models, model types and every deployment. */
export function CataloguePage() {
  const { t } = useTranslation();
  const { tab: param } = useParams<{ tab?: string }>();
  const [, navigate] = useLocation();
  const tab: CatalogueTab = (CATALOGUE_TABS as readonly string[]).includes(param ?? '') ? (param as CatalogueTab) : 'models';
  return (
    <RoutedTabs
      tabs={CATALOGUE_TABS}
      value={tab}
      onChange={(next) => navigate(catalogueTabPath(next))}
      label={(name) => t(`adminModels.tabs.${name}`)}
      panel={(name) => PANELS[name]()}
    />
  );
}
