import { Tabs } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A page's tabs, one of them chosen (by the address, typically): only the chosen panel is mounted,
 * so a tab loads what it shows when it is opened.
 */
export function RoutedTabs<T extends string>({ tabs, value, onChange, label, panel }: { tabs: readonly T[]; value: T; onChange: (tab: T) => void; label: (tab: T) => string; panel: (tab: T) => ReactNode }) {
  return (
    <Tabs value={value} onChange={(next) => next && onChange(next as T)} keepMounted={false}>
      <Tabs.List>
        {tabs.map((name) => (
          <Tabs.Tab key={name} value={name}>
            {label(name)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {tabs.map((name) => (
        <Tabs.Panel key={name} value={name} pt="md">
          {value === name && panel(name)}
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}
