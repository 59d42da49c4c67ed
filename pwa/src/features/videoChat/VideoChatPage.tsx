// Placeholder wired by the app router; the owner of this feature replaces it with the real page.
export default function VideoChatPage() {
  return (
    <main id="main" className="mx-auto max-w-2xl px-4 py-10">
      <h1 className="text-2xl font-bold text-slate-900">Video chat</h1>
      <p className="mt-2 text-slate-700">This page is being written and will be here soon.</p>
    </main>
  );
}
