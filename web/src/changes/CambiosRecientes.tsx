import { Box, Typography } from '@mui/material';
import { useEffect, useRef } from 'react';
import { List, SelectInput, TextInput, useDataProvider, useListContext, useTranslate } from 'react-admin';
import { resourceLabels } from '../../../src/catalogue/labels';
import type { CarteleraDataProvider } from '../dataProvider';
import { ChangePagination, ChangeRows } from './ChangeRows';
import type { Change } from './changeText';

const filters = [
  <SelectInput
    key="recurso"
    source="recurso"
    label="cartelera.changes.columns.resource"
    choices={Object.entries(resourceLabels).map(([id, [, many]]) => ({ id, name: many }))}
    translateChoice={false}
    emptyText="cartelera.changes.all"
    alwaysOn
  />,
  <TextInput key="quien" source="quien" label="cartelera.changes.columns.who" alwaysOn />,
];

/**
 * Cambios recientes (#/cambios): the latest changes of the whole catalogue, newest first, filtered
 * by resource and by person, a page at a time; the first page is kept up to date from the live feed.
 */
export const CambiosRecientes = () => (
  <List
    title="cartelera.changes.recent"
    filters={filters}
    actions={false}
    sort={{ field: 'id', order: 'DESC' }}
    perPage={50}
    pagination={<ChangePagination />}
    empty={false}
  >
    <Help />
    <LiveChanges />
    {/* On a phone the rows are blocks, kept off the card's edges as the help is. */}
    <Box sx={{ px: { xs: 2, sm: 0 } }}>
      <ChangeRows label="cartelera.changes.recent" columns={['when', 'who', 'resource', 'what']} />
    </Box>
  </List>
);

const Help = () => (
  <Typography variant="body2" color="text.secondary" sx={{ px: 2, pt: 1 }}>
    {useTranslate()('cartelera.changes.recentHelp')}
  </Typography>
);

/**
 * Reads the first page again whenever the live feed brings a change that matches its filters. The
 * feed starts after the newest change the page has shown, so that nothing committed between the
 * page's read and the feed's start is missed; a burst of changes costs one read at a time.
 */
const LiveChanges = () => {
  const { filterValues, data, page, refetch } = useListContext<Change>();
  const dataProvider = useDataProvider<CarteleraDataProvider>();
  const newest = useRef(0);
  newest.current = data?.[0]?.id ?? newest.current;
  const following = data !== undefined && page === 1;
  const filter = JSON.stringify(filterValues);
  useEffect(() => {
    if (!following) return;
    let reading = false;
    let again = false;
    const read = async () => {
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      do {
        again = false;
        await refetch();
      } while (again);
      reading = false;
    };
    const stop = new AbortController();
    void dataProvider.follow(JSON.parse(filter) as Record<string, unknown>, newest.current, () => void read(), stop.signal);
    return () => stop.abort();
  }, [dataProvider, following, filter, refetch]);
  return null;
};
