import { zodResolver } from "@hookform/resolvers/zod";
import KeyIcon from "@mui/icons-material/Key";
import { Button, Grid } from "@mui/material";
import {
  BooleanField,
  BooleanInput,
  Edit,
  EmailField,
  FunctionField,
  PasswordInput,
  SaveButton,
  SearchInput,
  SelectInput,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput,
  Toolbar,
  useNotify,
  usePermissions,
  useRecordContext,
  useRedirect,
  useTranslate,
} from "react-admin";
import { Link, Navigate, useParams } from "react-router-dom";
import { ROLE_LABELS, ROLES } from "../../core/constants";
import { messages } from "../../core/messages";
import { isAdmin } from "../../core/permissions";
import { PAGE_PATHS, screenPath } from "../../core/resources";
import { userAzureTokenSchema, userSchema, userUpdateSchema } from "../../core/schemas/user";
import type { SessionUser } from "../../core/session";
import { recordError } from "../common/RecordError";
import { type ConfirmSave, SiaCreate, SiaEdit, SiaList, SiaShow } from "../common/screens";

const createResolver = zodResolver(userSchema as never);
const updateResolver = zodResolver(userUpdateSchema);
const azureResolver = zodResolver(userAzureTokenSchema);

/** The signed-in user's own view (SPEC §2 show_not_admin/:id). */
export const ownProfilePath = (id: number | string) => `/app/users/show_not_admin/${encodeURIComponent(String(id))}`;

const ROLE_CHOICES = ROLES.map((role) => ({ id: role, name: ROLE_LABELS[role] }));

export function UserList() {
  const translate = useTranslate();
  // The search's placeholder is shown as given (react-admin does not translate it).
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate("resources.users.search")} />,
    <SelectInput
      key="role"
      source="by_role"
      label="resources.users.fields.by_role"
      choices={ROLE_CHOICES}
      emptyText="sia.filters.all"
      alwaysOn
    />,
  ];
  return (
    <SiaList filters={filters} sort={{ field: "name", order: "ASC" }}>
      <TextField source="name" />
      <EmailField source="email" />
      <TextField source="employee.name" label="resources.users.fields.employee" emptyText="—" />
      <BooleanField source="administrator_role" />
      <BooleanField source="operator_role" />
      <BooleanField source="finance_role" />
      <BooleanField source="can_chat" />
    </SiaList>
  );
}

/** Where a saved user leads (SPEC §6): administrators to the list, others to their own view. */
function useAfterSave() {
  const { permissions } = usePermissions<SessionUser | null>();
  const notify = useNotify();
  const redirect = useRedirect();
  return {
    onSuccess: () => {
      notify(messages.userSaved, { type: "success" });
      if (isAdmin(permissions)) redirect(screenPath("users", "list"));
      else if (permissions) redirect(ownProfilePath(permissions.id));
    },
  };
}

function UserInputs({ creating = false }: { creating?: boolean }) {
  return (
    <Grid container columnSpacing={2} sx={{ width: "100%" }}>
      <Grid size={{ xs: 12, md: 6 }}>
        <TextInput source="name" fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <TextInput source="email" type="email" fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 3 }}>
        <BooleanInput source="administrator_role" />
      </Grid>
      <Grid size={{ xs: 12, md: 3 }}>
        <BooleanInput source="operator_role" />
      </Grid>
      <Grid size={{ xs: 12, md: 3 }}>
        <BooleanInput source="finance_role" />
      </Grid>
      <Grid size={{ xs: 12, md: 3 }}>
        <BooleanInput source="can_chat" />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <PasswordInput
          source="password"
          fullWidth
          autoComplete="new-password"
          helperText={creating ? undefined : "resources.users.password_help"}
        />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <PasswordInput source="password_confirmation" fullWidth autoComplete="new-password" />
      </Grid>
      <Grid size={12}>
        <AzureTokenInputs />
      </Grid>
    </Grid>
  );
}

const ROLE_DEFAULTS = { administrator_role: false, operator_role: true, finance_role: false, can_chat: false };

export function UserCreate() {
  return (
    <SiaCreate resolver={createResolver} defaultValues={ROLE_DEFAULTS} mutationOptions={useAfterSave()}>
      <UserInputs creating />
    </SiaCreate>
  );
}

/**
 * The Azure DevOps token is write-only: the screens never see it, only whether one is saved. A blank
 * input keeps it (nothing is sent), a text replaces it, the switch clears it.
 */
function AzureTokenInputs() {
  const record = useRecordContext();
  const saved = Boolean(record?.has_azure_token);
  return (
    <>
      <PasswordInput
        source="azure_token"
        fullWidth
        autoComplete="off"
        helperText={saved ? "resources.users.azure_token_saved" : "resources.users.azure_token_none"}
      />
      {saved ? <BooleanInput source="clear_azure_token" /> : null}
    </>
  );
}

/** What the form sends of the token: the new one, or clear_azure_token, or nothing. */
const azureTokenChange = (data: Record<string, unknown>) => ({
  ...(typeof data.azure_token === "string" && data.azure_token.trim() ? { azure_token: data.azure_token } : {}),
  ...(data.clear_azure_token === true ? { clear_azure_token: true } : {}),
});

/** A blank password on edit means "keep it": neither field is sent. */
const editTransform = (data: Record<string, unknown>) => {
  const {
    password,
    password_confirmation,
    employee,
    has_cloud_token,
    has_azure_token,
    google_id,
    azure_token,
    clear_azure_token,
    ...rest
  } = data;
  const kept = { ...rest, ...azureTokenChange(data) };
  return password ? { ...kept, password, password_confirmation } : kept;
};
/** A non-administrator changes only their own azure_token (SPEC §6). */
const azureTransform = (data: Record<string, unknown>) => azureTokenChange(data);

/** An administrator unticking «Administrador» on her own user is asked first: she loses the app at once. */
function useSelfDemotionConfirm(): ConfirmSave {
  const { permissions } = usePermissions<SessionUser | null>();
  return (values, record) =>
    record &&
    permissions &&
    String(record.id) === String(permissions.id) &&
    record.administrator_role &&
    !values.administrator_role
      ? {
          title: "sia.admin_access.self_demotion_title",
          content: "sia.admin_access.self_demotion_content",
          confirm: "sia.admin_access.self_demotion_confirm",
        }
      : null;
}

function AdminUserEdit() {
  return (
    <SiaEdit
      resolver={updateResolver}
      transform={editTransform}
      mutationOptions={useAfterSave()}
      confirm={useSelfDemotionConfirm()}
    >
      <UserInputs />
    </SiaEdit>
  );
}

function OwnAzureTokenEdit() {
  return (
    <Edit
      error={recordError}
      mutationMode="pessimistic"
      transform={azureTransform}
      mutationOptions={useAfterSave()}
      title="resources.users.fields.azure_token"
    >
      <SimpleForm
        resolver={azureResolver}
        noValidate
        toolbar={
          <Toolbar>
            <SaveButton />
          </Toolbar>
        }
      >
        <AzureTokenInputs />
      </SimpleForm>
    </Edit>
  );
}

/** Whether a non-administrator is looking at someone else's user: they go to their own instead. */
function useForeignForNonAdmin() {
  const { id } = useParams();
  const { permissions, isPending } = usePermissions<SessionUser | null>();
  if (isPending || !permissions || isAdmin(permissions)) return { pending: isPending, redirectTo: null };
  return { pending: false, redirectTo: String(permissions.id) === String(id) ? null : PAGE_PATHS.notFound };
}

export function UserEdit() {
  const { permissions, isPending } = usePermissions<SessionUser | null>();
  const { redirectTo } = useForeignForNonAdmin();
  if (isPending) return null;
  if (redirectTo) return <Navigate to={redirectTo} replace />;
  return isAdmin(permissions) ? <AdminUserEdit /> : <OwnAzureTokenEdit />;
}

function EditAzureTokenLink() {
  const translate = useTranslate();
  const record = useRecordContext();
  if (!record) return null;
  return (
    <Button component={Link} to={screenPath("users", "edit", record.id)} startIcon={<KeyIcon />} size="small">
      {translate("resources.users.edit_azure_token")}
    </Button>
  );
}

export function UserShow() {
  const translate = useTranslate();
  const { permissions, isPending } = usePermissions<SessionUser | null>();
  const { redirectTo } = useForeignForNonAdmin();
  if (isPending) return null;
  if (redirectTo) return <Navigate to={redirectTo} replace />;
  const admin = isAdmin(permissions);
  return (
    // Administrators edit the whole user; the others only their own Azure DevOps token.
    <SiaShow editable={() => admin} actions={admin ? null : <EditAzureTokenLink />}>
      <SimpleShowLayout>
        <TextField source="name" />
        <EmailField source="email" />
        <TextField source="employee.name" label="resources.users.fields.employee" emptyText="resources.users.no_employee" />
        <BooleanField source="administrator_role" />
        <BooleanField source="operator_role" />
        <BooleanField source="finance_role" />
        <BooleanField source="can_chat" />
        <FunctionField
          source="has_azure_token"
          render={(record) => (record.has_azure_token ? translate("resources.users.azure_token_saved_short") : "—")}
        />
        <BooleanField source="has_cloud_token" />
      </SimpleShowLayout>
    </SiaShow>
  );
}

/** The screens, loaded on demand (src/admin/users/index.ts declares the resource). */
export const screens = {
  list: UserList,
  create: UserCreate,
  edit: UserEdit,
  show: UserShow,
};
