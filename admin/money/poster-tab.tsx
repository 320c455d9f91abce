import { Alert, Button, Center, ColorInput, FileButton, Group, Image, Loader, Paper, SegmentedControl, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { POSTER, type AdminPosterSettings, type AdminSavePosterBody } from '../../shared/contracts/poster.ts';
import { adminMoneyKey, adminPosterPreviewQuery, adminPosterQuery, saveAdminPoster, uploadPosterPicture } from './api.ts';
import { errorMessage } from '../../components/ui/error-message.ts';
import { notifySuccess, onMutationError } from '../../components/ui/notify.ts';

import './strings.ts';

type Draft = Omit<AdminSavePosterBody, 'removePicture'>;
type Lang = 'en' | 'zh';

const HEX = /^#[0-9a-fA-F]{6}$/;
const draftOf = (s: AdminPosterSettings): Draft => ({
  headlineEn: s.headlineEn,
  headlineZh: s.headlineZh,
  subtextEn: s.subtextEn,
  subtextZh: s.subtextZh,
  accentColor: s.accentColor,
});

/**
 * The invite poster (docs/api.md#invite-poster): the picture, the words in each language and the
 * accent colour operators set, beside a live preview made by the server with a sample account.
 */
export function PosterTab() {
  const { t } = useTranslation();
  const settings = useQuery(adminPosterQuery());
  if (settings.isPending) return <Loader size="sm" />;
  if (settings.isError) return <Alert color="red">{errorMessage(settings.error)}</Alert>;
  return <PosterEditor saved={settings.data} title={t('adminMoney.poster.title')} />;
}

function PosterEditor({ saved, title }: { saved: AdminPosterSettings; title: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftOf(saved));
  const [lang, setLang] = useState<Lang>('en');
  const set = (patch: Partial<Draft>) => setDraft((old) => ({ ...old, ...patch }));
  const refresh = (next: AdminPosterSettings) => queryClient.setQueryData(adminPosterQuery().queryKey, next);

  const save = useMutation({
    mutationFn: (body: AdminSavePosterBody) => saveAdminPoster(body),
    onSuccess: (next, body) => {
      refresh(next);
      // Removing the picture saves the saved words: the words being edited stay as they are.
      if (!body.removePicture) setDraft(draftOf(next));
      notifySuccess(t('adminMoney.poster.saved'));
      void queryClient.invalidateQueries({ queryKey: [...adminMoneyKey, 'poster', 'preview'] });
    },
    onError: onMutationError(),
  });
  const colourValid = HEX.test(draft.accentColor);
  const dirty = JSON.stringify(draft) !== JSON.stringify(draftOf(saved));
  const words = (which: 'headline' | 'subtext', l: Lang) => draft[`${which}${l === 'zh' ? 'Zh' : 'En'}`];

  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
      <Stack>
        <Title order={4}>{title}</Title>
        <Text size="sm" c="dimmed">
          {t('adminMoney.poster.intro')}
        </Text>
        <PictureCard saved={saved} onSaved={refresh} removing={save.isPending} onRemove={() => save.mutate({ ...draftOf(saved), removePicture: true })} />
        <ColorInput
          label={t('adminMoney.poster.accentColor')}
          format="hex"
          value={draft.accentColor}
          onChange={(accentColor) => set({ accentColor })}
          error={colourValid ? undefined : t('adminMoney.poster.colourInvalid')}
          swatches={['#7b7ddb', '#228be6', '#12b886', '#fab005', '#fa5252', '#1f1f2e']}
        />
        {(['en', 'zh'] as const).map((l) => (
          <Paper key={l} withBorder p="md">
            <Stack gap="xs">
              <Text fw={600} size="sm">
                {t(`adminMoney.poster.language.${l}`)}
              </Text>
              <TextInput
                label={t('adminMoney.poster.headline')}
                placeholder={saved.defaults[l].headline}
                maxLength={POSTER.headlineMaxChars}
                value={words('headline', l)}
                onChange={(e) => set({ [l === 'zh' ? 'headlineZh' : 'headlineEn']: e.currentTarget.value })}
                onFocus={() => setLang(l)}
              />
              <Textarea
                label={t('adminMoney.poster.subtext')}
                placeholder={saved.defaults[l].subtext}
                maxLength={POSTER.subtextMaxChars}
                autosize
                minRows={2}
                value={words('subtext', l)}
                onChange={(e) => set({ [l === 'zh' ? 'subtextZh' : 'subtextEn']: e.currentTarget.value })}
                onFocus={() => setLang(l)}
              />
            </Stack>
          </Paper>
        ))}
        <Text size="xs" c="dimmed">
          {t('adminMoney.poster.emptyHint')}
        </Text>
        <Group>
          <Button onClick={() => save.mutate(draft)} loading={save.isPending} disabled={!dirty || !colourValid}>
            {t('adminMoney.save')}
          </Button>
          {dirty && (
            <Button variant="subtle" onClick={() => setDraft(draftOf(saved))}>
              {t('adminMoney.poster.discard')}
            </Button>
          )}
        </Group>
      </Stack>
      <Stack>
        <Group justify="space-between">
          <Title order={4}>{t('adminMoney.poster.preview')}</Title>
          <SegmentedControl
            value={lang}
            onChange={(value) => setLang(value as Lang)}
            data={(['en', 'zh'] as const).map((l) => ({ value: l, label: t(`adminMoney.poster.language.${l}`) }))}
          />
        </Group>
        <Preview
          lang={lang}
          headline={words('headline', lang)}
          subtext={words('subtext', lang)}
          accentColor={colourValid ? draft.accentColor : saved.accentColor}
          updateTime={saved.updateTime}
          hasPicture={saved.hasPicture}
        />
      </Stack>
    </SimpleGrid>
  );
}

/** The operator's picture: upload or replace (saved at once), or remove. */
function PictureCard({ saved, onSaved, removing, onRemove }: { saved: AdminPosterSettings; onSaved: (next: AdminPosterSettings) => void; removing: boolean; onRemove: () => void }) {
  const { t } = useTranslation();
  const upload = useMutation({
    mutationFn: (file: File) => uploadPosterPicture(file),
    onSuccess: (next) => {
      onSaved(next);
      notifySuccess(t('adminMoney.poster.pictureSaved'));
    },
    onError: onMutationError(),
  });
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Text fw={600} size="sm">
          {t('adminMoney.poster.picture')}
        </Text>
        <Text size="xs" c="dimmed">
          {saved.hasPicture ? t('adminMoney.poster.pictureSet') : t('adminMoney.poster.pictureNone')}
        </Text>
        <Group gap="sm">
          <FileButton onChange={(file) => file && upload.mutate(file)} accept={POSTER.pictureAccept}>
            {(props) => (
              <Button {...props} variant="light" loading={upload.isPending}>
                {saved.hasPicture ? t('adminMoney.poster.replacePicture') : t('adminMoney.poster.uploadPicture')}
              </Button>
            )}
          </FileButton>
          {saved.hasPicture && (
            <Button variant="subtle" color="red" loading={removing} onClick={onRemove}>
              {t('adminMoney.poster.removePicture')}
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

/** The server's poster for the draft, asked for a moment after typing stops. */
function Preview(props: { lang: Lang; headline: string; subtext: string; accentColor: string; updateTime: string | null; hasPicture: boolean }) {
  const { t } = useTranslation();
  const [query] = useDebouncedValue({ lang: props.lang, headline: props.headline, subtext: props.subtext, accentColor: props.accentColor }, 400);
  // A new picture (or none) changes the preview although no word did.
  const preview = useQuery(adminPosterPreviewQuery(query, `${props.updateTime}:${props.hasPicture}`));
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    if (!preview.data) return setSrc(null);
    const url = URL.createObjectURL(preview.data);
    setSrc(url);
    return () => URL.revokeObjectURL(url);
  }, [preview.data]);
  if (preview.isError) return <Alert color="red">{errorMessage(preview.error)}</Alert>;
  if (!src) {
    return (
      <Center h={400}>
        <Loader size="sm" />
      </Center>
    );
  }
  return (
    <Stack gap={4}>
      <Image src={src} alt={t('adminMoney.poster.previewAlt')} maw={360} radius={6} data-testid="poster-preview" style={{ opacity: preview.isFetching ? 0.6 : 1 }} />
      <Text size="xs" c="dimmed">
        {t('adminMoney.poster.previewHint')}
      </Text>
    </Stack>
  );
}
