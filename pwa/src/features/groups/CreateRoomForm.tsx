import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  createGroupSchema,
  GROUP_CAPACITY_DEFAULT,
  GROUP_CAPACITY_MAX,
  GROUP_CAPACITY_MIN,
  GROUP_CATEGORIES,
} from '@parley/contract/groups';
import { FormAlert, SelectField, TextField } from '../../components/ui/Field';
import { primaryButton } from '../../components/ui/buttonStyles';
import { describeApiError, errorBody } from '../../lib/apiError';
import { useCreateGroupMutation } from './groupChatApi';
import { RoomLanguageField } from './RoomLanguageSelect';
import { categoryName } from '../../lib/categoryNames';
import { useLingui } from '@lingui/react/macro';

/** Creating a room: name, category, description, public or invite-only, capacity. */
export function CreateRoomForm() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [create, { isLoading }] = useCreateGroupMutation();
  const [fields, setFields] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | undefined>();

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const input = {
      name: String(f.get('name') ?? ''),
      category: String(f.get('category') ?? ''),
      description: String(f.get('description') ?? ''),
      visibility: String(f.get('visibility') ?? 'public'),
      capacity: Number(f.get('capacity') ?? GROUP_CAPACITY_DEFAULT),
      language: String(f.get('language') ?? '') || null,
    };
    const parsed = createGroupSchema.safeParse(input);
    if (!parsed.success) {
      // The schema's words are English: each field says what it needs in the interface language.
      const needs: Record<string, string> = {
        name: t`Give the room a name of 3 to 40 characters, without hidden or look-alike characters.`,
        category: t`Pick a category.`,
        description: t`The description is at most 280 characters, without hidden characters.`,
        visibility: t`Choose who can join.`,
        capacity: t`Capacity is a whole number from ${GROUP_CAPACITY_MIN} to ${GROUP_CAPACITY_MAX}.`,
        language: t`Pick a language from the list.`,
      };
      const next: Record<string, string> = {};
      for (const i of parsed.error.issues) next[String(i.path[0])] ??= needs[String(i.path[0])] ?? i.message;
      setFields(next);
      return;
    }
    setFields({});
    try {
      const room = await create(parsed.data).unwrap();
      void navigate(`/groupchat/${room.roomId}`);
    } catch (err) {
      setFields(errorBody(err).fields ?? {});
      setProblem(describeApiError(err, t`The room could not be created. Please try again.`));
    }
  }

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-3" aria-label={t`Create a room`}>
      <FormAlert message={problem} />
      <TextField label={t`Room name`} name="name" required maxLength={40} error={fields.name} />
      <SelectField label={t`Category`} name="category" defaultValue="Just chatting" error={fields.category}>
        {GROUP_CATEGORIES.map((c) => (
          <option key={c} value={c}>
            {categoryName(c)}
          </option>
        ))}
      </SelectField>
      <TextField label={t`Description`} name="description" maxLength={280} error={fields.description} />
      <RoomLanguageField error={fields.language} />
      <SelectField label={t`Who can join`} name="visibility" defaultValue="public" error={fields.visibility}>
        <option value="public">{t`Anyone (public)`}</option>
        <option value="invite">{t`Only people with the invite link`}</option>
      </SelectField>
      <TextField
        label={t`Capacity`}
        name="capacity"
        type="number"
        min={2}
        max={1000}
        defaultValue={GROUP_CAPACITY_DEFAULT}
        error={fields.capacity}
      />
      <button type="submit" disabled={isLoading} className={primaryButton}>
        {isLoading ? t`Creating…` : t`Create room`}
      </button>
    </form>
  );
}
