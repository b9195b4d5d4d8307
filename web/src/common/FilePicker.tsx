import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Button } from '@mui/material';

interface Props {
  /** The button's words. */
  label: string;
  /** The field's name, as a form would send it. */
  name: string;
  /** What the system's file chooser offers: types and extensions, as `<input accept>` takes them. */
  accept: readonly string[];
  /** The files chosen (several may be). The same file chosen again is reported again. */
  onFiles(files: File[]): void;
}

/** A button that opens the system's file chooser: a label around a hidden file input, reached by the keyboard as a button. */
export const FilePicker = ({ label, name, accept, onFiles }: Props) => (
  <Button component="label" variant="outlined" startIcon={<UploadFileIcon />}>
    {label}
    <input
      hidden
      type="file"
      name={name}
      multiple
      accept={accept.join(',')}
      onChange={(event) => {
        onFiles([...(event.target.files ?? [])]);
        event.target.value = '';
      }}
    />
  </Button>
);
