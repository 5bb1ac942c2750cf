import { SearchInput, type SearchInputProps, useTranslate } from "react-admin";

/**
 * The list's search box with its placeholder named by a catalogue key: react-admin translates labels
 * and helper texts but passes a placeholder through as it is.
 */
export function SearchFilter({ placeholder, ...props }: SearchInputProps & { placeholder: string }) {
  const translate = useTranslate();
  return <SearchInput {...props} placeholder={translate(placeholder)} />;
}
