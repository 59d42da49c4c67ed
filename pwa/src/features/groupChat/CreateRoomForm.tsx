import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { createGroupSchema, GROUP_CAPACITY_DEFAULT, GROUP_CATEGORIES } from '@parley/contract/groups';
import { FormAlert, primaryButton, SelectField, TextField } from '../../components/FormField';
import { describeApiError, errorBody } from '../../lib/apiError';
import { useCreateGroupMutation } from './groupChatApi';
import { RoomLanguageField } from './RoomLanguageSelect';

/** Creating a room: name, category, description, public or invite-only, capacity. */
export function CreateRoomForm() {
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
      const next: Record<string, string> = {};
      for (const i of parsed.error.issues) next[String(i.path[0])] ??= i.message;
      setFields(next);
      return;
    }
    setFields({});
    try {
      const room = await create(parsed.data).unwrap();
      void navigate(`/groupchat/${room.roomId}`);
    } catch (err) {
      setFields(errorBody(err).fields ?? {});
      setProblem(describeApiError(err));
    }
  }

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-3" aria-label="Create a room">
      <FormAlert message={problem} />
      <TextField label="Room name" name="name" required maxLength={40} error={fields.name} />
      <SelectField label="Category" name="category" defaultValue="Just chatting" error={fields.category}>
        {GROUP_CATEGORIES.map((c) => (
          <option key={c}>{c}</option>
        ))}
      </SelectField>
      <TextField label="Description" name="description" maxLength={280} error={fields.description} />
      <RoomLanguageField error={fields.language} />
      <SelectField label="Who can join" name="visibility" defaultValue="public" error={fields.visibility}>
        <option value="public">Anyone (public)</option>
        <option value="invite">Only people with the invite link</option>
      </SelectField>
      <TextField
        label="Capacity"
        name="capacity"
        type="number"
        min={2}
        max={1000}
        defaultValue={GROUP_CAPACITY_DEFAULT}
        error={fields.capacity}
      />
      <button type="submit" disabled={isLoading} className={primaryButton}>
        {isLoading ? 'Creating…' : 'Create room'}
      </button>
    </form>
  );
}
