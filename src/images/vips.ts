import sharp from 'sharp';

// libvips's operation cache would hold every recent original (20 MiB each) for pictures that are
// judged or rendered once and never again: off, memory goes back as soon as a picture is done.
sharp.cache(false);

export default sharp;
