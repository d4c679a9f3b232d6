/**
 * The dashboard editor's words for undo/redo and the responsive preview, in every shipped
 * locale; app-messages.ts spreads them into the app's catalogue.
 */

export const dashboardCanvasEn = {
  dashUndoHint: "Undo (Ctrl+Z)",
  dashRedoHint: "Redo (Ctrl+Shift+Z or Ctrl+Y)",
  dashStepMissingReport: "Not saved: a chart of this step shows a report that no longer exists. The last saved draft is kept.",
  dashStepInvalid: "Not saved: the server would refuse this step ({path}). The last saved draft is kept.",
  bpSwitch: "Screen size",
  bpAuto: "Fit",
  bpLg: "Desktop",
  bpMd: "Laptop",
  bpSm: "Tablet",
  bpWidth: "{size}, {width} px and wider",
  bpDerived: "The {size} layout is worked out from the desktop one. Arrange it yourself to edit it.",
  bpMakeEditable: "Arrange for {size}",
  bpOwn: "The {size} layout is its own: moves and resizes here change only it.",
  bpUseDerived: "Use the derived layout",
};
export type CanvasCatalog = typeof dashboardCanvasEn;

export const dashboardCanvasDe: CanvasCatalog = {
  dashUndoHint: "Rückgängig (Strg+Z)",
  dashRedoHint: "Wiederholen (Strg+Umschalt+Z oder Strg+Y)",
  dashStepMissingReport:
    "Nicht gespeichert: Ein Diagramm dieses Schritts zeigt einen Bericht, den es nicht mehr gibt. Der zuletzt gespeicherte Entwurf bleibt.",
  dashStepInvalid: "Nicht gespeichert: Der Server würde diesen Schritt ablehnen ({path}). Der zuletzt gespeicherte Entwurf bleibt.",
  bpSwitch: "Bildschirmgröße",
  bpAuto: "Angepasst",
  bpLg: "Desktop",
  bpMd: "Laptop",
  bpSm: "Tablet",
  bpWidth: "{size}, ab {width} px",
  bpDerived: "Das Layout für {size} wird aus dem Desktop-Layout abgeleitet. Ordnen Sie es selbst an, um es zu bearbeiten.",
  bpMakeEditable: "Für {size} anordnen",
  bpOwn: "Das Layout für {size} ist eigenständig: Verschieben und Größenänderungen hier ändern nur dieses.",
  bpUseDerived: "Abgeleitetes Layout verwenden",
};

export const dashboardCanvasEs: CanvasCatalog = {
  dashUndoHint: "Deshacer (Ctrl+Z)",
  dashRedoHint: "Rehacer (Ctrl+Mayús+Z o Ctrl+Y)",
  dashStepMissingReport: "No guardado: un gráfico de este paso muestra un informe que ya no existe. Se conserva el último borrador guardado.",
  dashStepInvalid: "No guardado: el servidor rechazaría este paso ({path}). Se conserva el último borrador guardado.",
  bpSwitch: "Tamaño de pantalla",
  bpAuto: "Ajustar",
  bpLg: "Escritorio",
  bpMd: "Portátil",
  bpSm: "Tableta",
  bpWidth: "{size}, desde {width} px",
  bpDerived: "El diseño de {size} se calcula a partir del de escritorio. Organízalo tú para editarlo.",
  bpMakeEditable: "Organizar para {size}",
  bpOwn: "El diseño de {size} es propio: mover y redimensionar aquí solo lo cambia a él.",
  bpUseDerived: "Usar el diseño calculado",
};

export const dashboardCanvasFr: CanvasCatalog = {
  dashUndoHint: "Annuler (Ctrl+Z)",
  dashRedoHint: "Rétablir (Ctrl+Maj+Z ou Ctrl+Y)",
  dashStepMissingReport: "Non enregistré : un graphique de cette étape affiche un rapport qui n’existe plus. Le dernier brouillon enregistré est conservé.",
  dashStepInvalid: "Non enregistré : le serveur refuserait cette étape ({path}). Le dernier brouillon enregistré est conservé.",
  bpSwitch: "Taille d’écran",
  bpAuto: "Ajusté",
  bpLg: "Ordinateur",
  bpMd: "Portable",
  bpSm: "Tablette",
  bpWidth: "{size}, à partir de {width} px",
  bpDerived: "La disposition {size} est déduite de celle de l’ordinateur. Disposez-la vous-même pour la modifier.",
  bpMakeEditable: "Disposer pour {size}",
  bpOwn: "La disposition {size} est la sienne : déplacer et redimensionner ici ne change qu’elle.",
  bpUseDerived: "Reprendre la disposition déduite",
};

export const dashboardCanvasIt: CanvasCatalog = {
  dashUndoHint: "Annulla (Ctrl+Z)",
  dashRedoHint: "Ripeti (Ctrl+Maiusc+Z o Ctrl+Y)",
  dashStepMissingReport: "Non salvato: un grafico di questo passo mostra un report che non esiste più. Resta l’ultima bozza salvata.",
  dashStepInvalid: "Non salvato: il server rifiuterebbe questo passo ({path}). Resta l’ultima bozza salvata.",
  bpSwitch: "Dimensione schermo",
  bpAuto: "Adatta",
  bpLg: "Desktop",
  bpMd: "Portatile",
  bpSm: "Tablet",
  bpWidth: "{size}, da {width} px",
  bpDerived: "Il layout {size} è ricavato da quello desktop. Disponilo tu per modificarlo.",
  bpMakeEditable: "Disponi per {size}",
  bpOwn: "Il layout {size} è proprio: spostamenti e ridimensionamenti qui cambiano solo questo.",
  bpUseDerived: "Usa il layout ricavato",
};

export const dashboardCanvasJa: CanvasCatalog = {
  dashUndoHint: "元に戻す (Ctrl+Z)",
  dashRedoHint: "やり直す (Ctrl+Shift+Z または Ctrl+Y)",
  dashStepMissingReport: "未保存: この手順のチャートは、もう存在しないレポートを表示しています。最後に保存した下書きが保持されます。",
  dashStepInvalid: "未保存: サーバーはこの手順を受け付けません ({path})。最後に保存した下書きが保持されます。",
  bpSwitch: "画面サイズ",
  bpAuto: "自動",
  bpLg: "デスクトップ",
  bpMd: "ノートPC",
  bpSm: "タブレット",
  bpWidth: "{size}、{width} px 以上",
  bpDerived: "{size}のレイアウトはデスクトップのレイアウトから作られています。編集するには自分で配置してください。",
  bpMakeEditable: "{size}用に配置",
  bpOwn: "{size}のレイアウトは独自です。ここでの移動やサイズ変更はこのレイアウトだけを変更します。",
  bpUseDerived: "自動のレイアウトに戻す",
};

export const dashboardCanvasNb: CanvasCatalog = {
  dashUndoHint: "Angre (Ctrl+Z)",
  dashRedoHint: "Gjør om (Ctrl+Skift+Z eller Ctrl+Y)",
  dashStepMissingReport: "Ikke lagret: et diagram i dette trinnet viser en rapport som ikke finnes lenger. Det sist lagrede utkastet beholdes.",
  dashStepInvalid: "Ikke lagret: serveren ville avvist dette trinnet ({path}). Det sist lagrede utkastet beholdes.",
  bpSwitch: "Skjermstørrelse",
  bpAuto: "Tilpass",
  bpLg: "Skrivebord",
  bpMd: "Bærbar",
  bpSm: "Nettbrett",
  bpWidth: "{size}, fra {width} px",
  bpDerived: "Oppsettet for {size} er avledet av skrivebordsoppsettet. Ordne det selv for å redigere det.",
  bpMakeEditable: "Ordne for {size}",
  bpOwn: "Oppsettet for {size} er eget: flytting og endring av størrelse her endrer bare det.",
  bpUseDerived: "Bruk det avledede oppsettet",
};

export const dashboardCanvasPtBR: CanvasCatalog = {
  dashUndoHint: "Desfazer (Ctrl+Z)",
  dashRedoHint: "Refazer (Ctrl+Shift+Z ou Ctrl+Y)",
  dashStepMissingReport: "Não salvo: um gráfico desta etapa mostra um relatório que não existe mais. O último rascunho salvo é mantido.",
  dashStepInvalid: "Não salvo: o servidor recusaria esta etapa ({path}). O último rascunho salvo é mantido.",
  bpSwitch: "Tamanho da tela",
  bpAuto: "Ajustar",
  bpLg: "Desktop",
  bpMd: "Notebook",
  bpSm: "Tablet",
  bpWidth: "{size}, a partir de {width} px",
  bpDerived: "O layout de {size} é derivado do layout de desktop. Organize-o você mesmo para editá-lo.",
  bpMakeEditable: "Organizar para {size}",
  bpOwn: "O layout de {size} é próprio: mover e redimensionar aqui muda só ele.",
  bpUseDerived: "Usar o layout derivado",
};

export const dashboardCanvasSv: CanvasCatalog = {
  dashUndoHint: "Ångra (Ctrl+Z)",
  dashRedoHint: "Gör om (Ctrl+Skift+Z eller Ctrl+Y)",
  dashStepMissingReport: "Inte sparat: ett diagram i det här steget visar en rapport som inte längre finns. Det senast sparade utkastet behålls.",
  dashStepInvalid: "Inte sparat: servern skulle neka det här steget ({path}). Det senast sparade utkastet behålls.",
  bpSwitch: "Skärmstorlek",
  bpAuto: "Anpassa",
  bpLg: "Dator",
  bpMd: "Bärbar",
  bpSm: "Surfplatta",
  bpWidth: "{size}, från {width} px",
  bpDerived: "Layouten för {size} härleds från datorlayouten. Ordna den själv för att redigera den.",
  bpMakeEditable: "Ordna för {size}",
  bpOwn: "Layouten för {size} är egen: flyttar och storleksändringar här ändrar bara den.",
  bpUseDerived: "Använd den härledda layouten",
};

export const dashboardCanvasVi: CanvasCatalog = {
  dashUndoHint: "Hoàn tác (Ctrl+Z)",
  dashRedoHint: "Làm lại (Ctrl+Shift+Z hoặc Ctrl+Y)",
  dashStepMissingReport: "Chưa lưu: một biểu đồ ở bước này hiển thị báo cáo không còn tồn tại. Bản nháp đã lưu gần nhất được giữ lại.",
  dashStepInvalid: "Chưa lưu: máy chủ sẽ từ chối bước này ({path}). Bản nháp đã lưu gần nhất được giữ lại.",
  bpSwitch: "Kích thước màn hình",
  bpAuto: "Vừa khung",
  bpLg: "Máy tính",
  bpMd: "Máy xách tay",
  bpSm: "Máy tính bảng",
  bpWidth: "{size}, từ {width} px",
  bpDerived: "Bố cục {size} được suy ra từ bố cục máy tính. Hãy tự sắp xếp để chỉnh sửa.",
  bpMakeEditable: "Sắp xếp cho {size}",
  bpOwn: "Bố cục {size} là riêng: di chuyển và đổi kích thước ở đây chỉ thay đổi bố cục này.",
  bpUseDerived: "Dùng bố cục suy ra",
};
