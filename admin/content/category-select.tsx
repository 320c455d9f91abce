import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { QuickFunctionCategory } from '../../shared/contracts/quick-function.ts';
import './strings.ts';

/** In the order the menus show them. */
const CATEGORIES: readonly QuickFunctionCategory[] = ['scoped', 'style'];

/** The category of a quick function or a recommended prompt: scoped (works on a text) or style. */
export function CategorySelect({ value, onChange }: { value: QuickFunctionCategory; onChange: (category: QuickFunctionCategory) => void }) {
  const { t } = useTranslation();
  return (
    <Select
      label={t('adminContent.quickFunctions.category')}
      data={CATEGORIES.map((c) => ({ value: c, label: t(`adminContent.quickFunctions.categories.${c}`) }))}
      value={value}
      onChange={(c) => c && onChange(c as QuickFunctionCategory)}
      allowDeselect={false}
    />
  );
}
